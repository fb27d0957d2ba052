//! A selector is evaluated against every candidate message: evaluating one must not allocate
//! (counted through a global allocator that counts calls on this thread).

// A counting allocator has to implement the unsafe GlobalAlloc trait; it only forwards.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use ferry_model::message::{CorrelId, Message, Persistence, PropertyValue};
use ferry_model::selector::Selector;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded to the system allocator unchanged; the counter is a
// thread-local cell touched without allocating.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        // SAFETY: the caller's contract for `alloc` is passed on as it is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn evaluating_a_selector_does_not_allocate() {
    let mut m = Message::text("x").with_persistence(Persistence::Persistent);
    m.descriptor.correl_id = CorrelId::from_slice(b"ORDER-42");
    m.properties
        .set("region", PropertyValue::String("EMEA".into()))
        .unwrap();
    m.properties.set("qty", PropertyValue::I32(12)).unwrap();
    m.properties.set("price", PropertyValue::F64(9.5)).unwrap();
    let selectors = [
        "region = 'EMEA' AND qty * price > 100",
        "region LIKE 'E_E%' ESCAPE '!' OR qty BETWEEN 1 AND 5",
        "region IN ('APAC', 'EMEA') AND missing IS NULL AND NOT (qty <> 12)",
        "JMSDeliveryMode = 'PERSISTENT' AND Root.MQMD.Persistence = 1",
        "Root.MQMD.CorrelId = '4f524445522d3432000000000000000000000000000000000' OR JMSPriority >= 0",
    ];
    for text in selectors {
        let s = Selector::parse(text).unwrap();
        let before = ALLOCATIONS.with(Cell::get);
        let mut matched = 0;
        for _ in 0..1000 {
            matched += usize::from(s.matches(&m.descriptor, &m.properties));
        }
        let during = ALLOCATIONS.with(Cell::get) - before;
        assert_eq!(
            during, 0,
            "{text}: {during} allocations in 1000 evaluations"
        );
        assert!(matched == 0 || matched == 1000, "{text}");
    }
}
