//! MQAI data bags (`include/cmqbc.h`): bags live in the calling process, in a handle table;
//! the calls create them, add, set, inquire, count, delete and clear items, as the MQAI
//! reference describes. Sending a bag as a PCF command (mqExecute and friends) is not offered
//! yet — FerryMQ is administered with MQSC — and answers MQRC_FUNCTION_NOT_SUPPORTED.
//!
//! Every bag holds two system items from its creation, as MQAI bags do: its coded character
//! set (MQIASY_CODED_CHAR_SET_ID, alterable) and its options (MQIASY_BAG_OPTIONS, read-only).
//! Bounds: at most [`MAX_BAGS`] bags in a process and [`MAX_ITEMS`] items in a bag
//! (MQRC_STORAGE_NOT_AVAILABLE past either).

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use crate::api::{Outcome, Rc, RC_BUFFER_ERROR, RC_BUFFER_LENGTH_ERROR, RC_OPTIONS_ERROR};
use crate::structs::MQLONG;

/// Bags one process may hold at once.
pub const MAX_BAGS: usize = 65_536;
/// Items one bag may hold.
pub const MAX_ITEMS: usize = 1_000_000;

// Constants of cmqc.h / cmqbc.h used here.
const MQCBO_ADMIN_BAG: MQLONG = 0x01;
const MQCBO_CHECK_SELECTORS: MQLONG = 0x08;
const MQCBO_COMMAND_BAG: MQLONG = 0x10;
const MQCBO_SYSTEM_BAG: MQLONG = 0x20;
const MQCBO_GROUP_BAG: MQLONG = 0x40;
const MQCBO_ALL: MQLONG = 0x7f;
const MQHB_UNUSABLE_HBAG: MQLONG = -1;
const MQBL_NULL_TERMINATED: MQLONG = -1;
const MQIASY_CODED_CHAR_SET_ID: MQLONG = -1;
const MQIASY_BAG_OPTIONS: MQLONG = -8;
const MQIASY_LAST_USED: MQLONG = -9;
const MQSEL_ANY_SELECTOR: MQLONG = -30001;
const MQSEL_ANY_USER_SELECTOR: MQLONG = -30002;
const MQSEL_ANY_SYSTEM_SELECTOR: MQLONG = -30003;
const MQIND_NONE: MQLONG = -1;
const MQIND_ALL: MQLONG = -2;
const MQIACF_INQUIRY: MQLONG = 1074;
const MQIA_RANGE: std::ops::RangeInclusive<MQLONG> = 1..=2000;
const MQCA_RANGE: std::ops::RangeInclusive<MQLONG> = 2001..=4000;
/// MQCFOP_* operators a filter may use.
const OPERATORS: [MQLONG; 12] = [1, 2, 3, 4, 5, 6, 10, 13, 18, 21, 26, 29];

const RC_STORAGE_NOT_AVAILABLE: u32 = 2071;
const RC_SYSTEM_ITEM_NOT_ALTERABLE: u32 = 2302;
const RC_SELECTOR_OUT_OF_RANGE: u32 = 2304;
const RC_SELECTOR_NOT_UNIQUE: u32 = 2305;
const RC_INDEX_NOT_PRESENT: u32 = 2306;
const RC_STRING_ERROR: u32 = 2307;
const RC_SELECTOR_NOT_PRESENT: u32 = 2309;
const RC_OUT_SELECTOR_ERROR: u32 = 2310;
const RC_STRING_TRUNCATED: u32 = 2311;
const RC_SELECTOR_WRONG_TYPE: u32 = 2312;
const RC_INCONSISTENT_ITEM_TYPE: u32 = 2313;
const RC_INDEX_ERROR: u32 = 2314;
const RC_ITEM_COUNT_ERROR: u32 = 2316;
const RC_SELECTOR_NOT_SUPPORTED: u32 = 2318;
const RC_HBAG_ERROR: u32 = 2320;
const RC_BAG_WRONG_TYPE: u32 = 2326;
const RC_ITEM_TYPE_ERROR: u32 = 2327;
const RC_SYSTEM_BAG_NOT_DELETABLE: u32 = 2328;
const RC_SYSTEM_ITEM_NOT_DELETABLE: u32 = 2329;
const RC_FILTER_OPERATOR_ERROR: u32 = 2418;

/// A data item's value; its MQITEM_* type is [`Value::item_type`].
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Integer(MQLONG),
    Integer64(i64),
    IntegerFilter(MQLONG, MQLONG),
    String(Vec<u8>, MQLONG),
    StringFilter(Vec<u8>, MQLONG, MQLONG),
    ByteString(Vec<u8>),
    ByteStringFilter(Vec<u8>, MQLONG),
    Bag(MQLONG),
}

impl Value {
    fn item_type(&self) -> MQLONG {
        match self {
            Value::Integer(_) => 1,
            Value::String(..) => 2,
            Value::Bag(_) => 3,
            Value::ByteString(_) => 4,
            Value::IntegerFilter(..) => 5,
            Value::StringFilter(..) => 6,
            Value::Integer64(_) => 7,
            Value::ByteStringFilter(..) => 8,
        }
    }
}

#[derive(Debug)]
struct Bag {
    options: MQLONG,
    /// System items first (negative selectors), then user items in the order added.
    items: Vec<(MQLONG, Value)>,
}

impl Bag {
    fn checks_selectors(&self) -> bool {
        self.options & (MQCBO_ADMIN_BAG | MQCBO_CHECK_SELECTORS | MQCBO_COMMAND_BAG) != 0
    }

    fn is_system(&self) -> bool {
        self.options & MQCBO_SYSTEM_BAG != 0
    }

    /// Positions of the items `selector` picks out, in bag order.
    fn matching(&self, selector: MQLONG) -> Result<Vec<usize>, Rc> {
        let pick: Box<dyn Fn(MQLONG) -> bool> = match selector {
            MQSEL_ANY_SELECTOR => Box::new(|_| true),
            MQSEL_ANY_USER_SELECTOR => Box::new(|s| s >= 0),
            MQSEL_ANY_SYSTEM_SELECTOR => Box::new(|s| s < 0),
            s if s < 0 && !(MQIASY_LAST_USED..=MQIASY_CODED_CHAR_SET_ID).contains(&s) => {
                return Err(Rc::failed(RC_SELECTOR_NOT_SUPPORTED))
            }
            s => Box::new(move |x| x == s),
        };
        Ok((0..self.items.len())
            .filter(|&i| pick(self.items[i].0))
            .collect())
    }

    /// The position of the one item (`selector`, `index`) names.
    fn locate(&self, selector: MQLONG, index: MQLONG) -> Result<usize, Rc> {
        let found = self.matching(selector)?;
        if found.is_empty() {
            return Err(Rc::failed(RC_SELECTOR_NOT_PRESENT));
        }
        match index {
            MQIND_NONE if found.len() > 1 => Err(Rc::failed(RC_SELECTOR_NOT_UNIQUE)),
            MQIND_NONE => Ok(found[0]),
            i if i < 0 => Err(Rc::failed(RC_INDEX_ERROR)),
            i => found
                .get(i as usize)
                .copied()
                .ok_or(Rc::failed(RC_INDEX_NOT_PRESENT)),
        }
    }

    /// Appends a user item, checking its selector and that it matches earlier occurrences.
    fn add(&mut self, selector: MQLONG, value: Value) -> Outcome {
        self.check_user_selector(selector, &value)?;
        if let Some((_, first)) = self.items.iter().find(|(s, _)| *s == selector) {
            if first.item_type() != value.item_type() {
                return Err(Rc::failed(RC_INCONSISTENT_ITEM_TYPE));
            }
        }
        if self.items.len() >= MAX_ITEMS {
            return Err(Rc::failed(RC_STORAGE_NOT_AVAILABLE));
        }
        self.items.push((selector, value));
        Ok(None)
    }

    fn check_user_selector(&self, selector: MQLONG, value: &Value) -> Outcome {
        if selector < 0 {
            return Err(Rc::failed(RC_SELECTOR_OUT_OF_RANGE));
        }
        // Administration parameters (MQIACF_*, MQCACF_*, MQIACH_*, ...) lie beyond the object
        // attribute ranges and MQAI accepts them in admin bags, so a checking bag refuses only a
        // selector of the other kind: an integer that names a string attribute, or the reverse.
        if self.checks_selectors() {
            let other_kind = match value {
                Value::Integer(_) | Value::IntegerFilter(..) | Value::Integer64(_) => &MQCA_RANGE,
                Value::String(..) | Value::StringFilter(..) => &MQIA_RANGE,
                _ => return Ok(None),
            };
            if other_kind.contains(&selector) {
                return Err(Rc::failed(RC_SELECTOR_OUT_OF_RANGE));
            }
        }
        Ok(None)
    }

    /// Replaces item (`selector`, `index`), or with MQIND_ALL deletes every occurrence and
    /// appends a new one.
    fn set(&mut self, selector: MQLONG, index: MQLONG, value: Value) -> Outcome {
        if selector == MQIASY_CODED_CHAR_SET_ID {
            let Value::Integer(_) = value else {
                return Err(Rc::failed(RC_SELECTOR_WRONG_TYPE));
            };
            let at = self.locate(selector, MQIND_NONE)?;
            self.items[at].1 = value;
            return Ok(None);
        }
        if selector < 0 {
            return Err(
                if matches!(selector, MQIASY_LAST_USED..=MQIASY_CODED_CHAR_SET_ID) {
                    Rc::failed(RC_SYSTEM_ITEM_NOT_ALTERABLE)
                } else {
                    Rc::failed(RC_SELECTOR_OUT_OF_RANGE)
                },
            );
        }
        if index == MQIND_ALL {
            self.items.retain(|(s, _)| *s != selector);
            return self.add(selector, value);
        }
        self.check_user_selector(selector, &value)?;
        let at = self.locate(selector, index)?;
        if self.items[at].1.item_type() != value.item_type() {
            return Err(Rc::failed(RC_SELECTOR_WRONG_TYPE));
        }
        self.items[at].1 = value;
        Ok(None)
    }
}

struct Bags {
    next: MQLONG,
    bags: HashMap<MQLONG, Bag>,
}

static BAGS: LazyLock<Mutex<Bags>> = LazyLock::new(|| {
    Mutex::new(Bags {
        next: 1,
        bags: HashMap::new(),
    })
});

fn with_bag<T>(hbag: MQLONG, f: impl FnOnce(&mut Bag) -> Result<T, Rc>) -> Result<T, Rc> {
    let mut bags = BAGS.lock().unwrap_or_else(|e| e.into_inner());
    let bag = bags.bags.get_mut(&hbag).ok_or(Rc::failed(RC_HBAG_ERROR))?;
    f(bag)
}

/// mqCreateBag.
///
/// # Safety
/// `hbag` must be null or valid for an MQLONG write.
pub unsafe fn create(options: MQLONG, hbag: *mut MQLONG) -> Outcome {
    if hbag.is_null() {
        return Err(Rc::failed(RC_HBAG_ERROR));
    }
    // SAFETY: the caller passes `hbag` valid for an MQLONG write (MQAI contract), checked
    // non-null just above.
    unsafe { *hbag = MQHB_UNUSABLE_HBAG };
    // Only this library creates system bags (none yet); callers may not ask for one.
    if options & !MQCBO_ALL != 0 || options & MQCBO_SYSTEM_BAG != 0 {
        return Err(Rc::failed(RC_OPTIONS_ERROR));
    }
    let mut bags = BAGS.lock().unwrap_or_else(|e| e.into_inner());
    if bags.bags.len() >= MAX_BAGS {
        return Err(Rc::failed(RC_STORAGE_NOT_AVAILABLE));
    }
    let handle = loop {
        let h = bags.next;
        bags.next = if h >= MQLONG::MAX - 1 { 1 } else { h + 1 };
        if !bags.bags.contains_key(&h) {
            break h;
        }
    };
    let items = vec![
        (MQIASY_CODED_CHAR_SET_ID, Value::Integer(0)),
        (MQIASY_BAG_OPTIONS, Value::Integer(options)),
    ];
    bags.bags.insert(handle, Bag { options, items });
    // SAFETY: `hbag` is the caller's MQLONG, valid for a write (MQAI contract), checked
    // non-null at the top.
    unsafe { *hbag = handle };
    Ok(None)
}

/// mqDeleteBag.
///
/// # Safety
/// `hbag` must be null or valid for an MQLONG read and write.
pub unsafe fn delete(hbag: *mut MQLONG) -> Outcome {
    if hbag.is_null() {
        return Err(Rc::failed(RC_HBAG_ERROR));
    }
    // SAFETY: the caller passes `hbag` valid for an MQLONG read and write (MQAI contract),
    // checked non-null just above.
    let h = unsafe { *hbag };
    let mut bags = BAGS.lock().unwrap_or_else(|e| e.into_inner());
    match bags.bags.get(&h) {
        None => return Err(Rc::failed(RC_HBAG_ERROR)),
        Some(b) if b.is_system() => return Err(Rc::failed(RC_SYSTEM_BAG_NOT_DELETABLE)),
        Some(_) => {}
    }
    bags.bags.remove(&h);
    // SAFETY: `hbag` is the caller's MQLONG, valid for a write (MQAI contract), checked
    // non-null at the top.
    unsafe { *hbag = MQHB_UNUSABLE_HBAG };
    Ok(None)
}

/// mqClearBag: deletes every user item.
pub fn clear(hbag: MQLONG) -> Outcome {
    with_bag(hbag, |b| {
        b.items.retain(|(s, _)| *s < 0);
        Ok(None)
    })
}

/// mqTruncateBag: keeps the first `count` user items.
pub fn truncate(hbag: MQLONG, count: MQLONG) -> Outcome {
    with_bag(hbag, |b| {
        let system = b.items.iter().filter(|(s, _)| *s < 0).count();
        let user = b.items.len() - system;
        if count < 0 || count as usize > user {
            return Err(Rc::failed(RC_ITEM_COUNT_ERROR));
        }
        b.items.truncate(system + count as usize);
        Ok(None)
    })
}

/// mqCountItems.
///
/// # Safety
/// `count` must be null or valid for an MQLONG write.
pub unsafe fn count(hbag: MQLONG, selector: MQLONG, count: *mut MQLONG) -> Outcome {
    if count.is_null() {
        return Err(Rc::failed(RC_ITEM_COUNT_ERROR));
    }
    let n = with_bag(hbag, |b| b.matching(selector).map(|v| v.len()))?;
    // SAFETY: the caller passes `count` valid for an MQLONG write (MQAI contract), checked
    // non-null at the top.
    unsafe { *count = n as MQLONG };
    Ok(None)
}

/// mqDeleteItem.
pub fn delete_item(hbag: MQLONG, selector: MQLONG, index: MQLONG) -> Outcome {
    with_bag(hbag, |b| {
        if (MQIASY_LAST_USED..=MQIASY_CODED_CHAR_SET_ID).contains(&selector) {
            return Err(Rc::failed(RC_SYSTEM_ITEM_NOT_DELETABLE));
        }
        if index == MQIND_ALL {
            let found = b.matching(selector)?;
            if found.is_empty() {
                return Err(Rc::failed(RC_SELECTOR_NOT_PRESENT));
            }
            if found.iter().any(|&i| b.items[i].0 < 0) {
                return Err(Rc::failed(RC_SYSTEM_ITEM_NOT_DELETABLE));
            }
            for i in found.into_iter().rev() {
                b.items.remove(i);
            }
            return Ok(None);
        }
        let at = b.locate(selector, index)?;
        if b.items[at].0 < 0 {
            return Err(Rc::failed(RC_SYSTEM_ITEM_NOT_DELETABLE));
        }
        b.items.remove(at);
        Ok(None)
    })
}

/// Reads the caller's string argument: `len` bytes, or up to the first null for
/// MQBL_NULL_TERMINATED.
///
/// # Safety
/// `buf` must be null, or valid for `len` readable bytes, or (for MQBL_NULL_TERMINATED) point
/// to a null-terminated string.
unsafe fn argument(len: MQLONG, buf: *const u8) -> Result<Vec<u8>, Rc> {
    if len < MQBL_NULL_TERMINATED {
        return Err(Rc::failed(RC_BUFFER_LENGTH_ERROR));
    }
    if len == 0 {
        return Ok(Vec::new());
    }
    if buf.is_null() {
        return Err(Rc::failed(RC_STRING_ERROR));
    }
    if len == MQBL_NULL_TERMINATED {
        // SAFETY: for MQBL_NULL_TERMINATED the caller passes `buf` as a null-terminated string
        // (MQAI contract, this fn's `# Safety`); checked non-null above.
        let s = unsafe { std::ffi::CStr::from_ptr(buf.cast()) };
        return Ok(s.to_bytes().to_vec());
    }
    // SAFETY: the caller passes `buf` holding `len` bytes (MQAI contract); `len` is positive
    // here (below -1, 0 and -1 are handled above) and `buf` checked non-null above.
    let b = unsafe { std::slice::from_raw_parts(buf, len as usize) };
    Ok(b.to_vec())
}

fn check_operator(op: MQLONG) -> Result<(), Rc> {
    if OPERATORS.contains(&op) {
        Ok(())
    } else {
        Err(Rc::failed(RC_FILTER_OPERATOR_ERROR))
    }
}

/// What an add or set call carries: built from the call's arguments.
#[derive(Debug)]
pub enum Item {
    /// mqAddInteger / mqSetInteger.
    Integer(MQLONG),
    /// mqAddInteger64 / mqSetInteger64.
    Integer64(i64),
    /// mqAddIntegerFilter (value, operator).
    IntegerFilter(MQLONG, MQLONG),
    /// mqAddString / mqSetString (length, buffer).
    String(MQLONG, *const u8),
    /// mqAddStringFilter (length, buffer, operator).
    StringFilter(MQLONG, *const u8, MQLONG),
    /// mqAddByteString / mqSetByteString (length, buffer).
    ByteString(MQLONG, *const u8),
    /// mqAddByteStringFilter (length, buffer, operator).
    ByteStringFilter(MQLONG, *const u8, MQLONG),
    /// mqAddBag (a group bag's handle).
    Bag(MQLONG),
}

impl Item {
    /// The item's value, its strings read from the caller's buffers.
    ///
    /// # Safety
    /// The (length, buffer) pair of a string or byte-string item must be as [`argument`]
    /// requires.
    unsafe fn value(self, ccsid: MQLONG) -> Result<Value, Rc> {
        Ok(match self {
            Item::Integer(v) => Value::Integer(v),
            Item::Integer64(v) => Value::Integer64(v),
            Item::IntegerFilter(v, op) => {
                check_operator(op)?;
                Value::IntegerFilter(v, op)
            }
            // SAFETY: the caller passes `len` and `buf` as `argument` requires (this fn's
            // contract); `argument` checks `buf` for null and `len` for range.
            Item::String(len, buf) => Value::String(unsafe { argument(len, buf) }?, ccsid),
            Item::StringFilter(len, buf, op) => {
                check_operator(op)?;
                // SAFETY: the caller passes `len` and `buf` as `argument` requires (this fn's
                // contract); `argument` checks `buf` for null and `len` for range.
                Value::StringFilter(unsafe { argument(len, buf) }?, ccsid, op)
            }
            Item::ByteString(len, buf) => {
                if len == MQBL_NULL_TERMINATED {
                    return Err(Rc::failed(RC_BUFFER_LENGTH_ERROR));
                }
                // SAFETY: the caller passes `buf` holding `len` bytes as `argument` requires
                // (this fn's contract); `argument` checks `buf` for null and `len` for range.
                Value::ByteString(unsafe { argument(len, buf) }?)
            }
            Item::ByteStringFilter(len, buf, op) => {
                check_operator(op)?;
                if len == MQBL_NULL_TERMINATED {
                    return Err(Rc::failed(RC_BUFFER_LENGTH_ERROR));
                }
                // SAFETY: the caller passes `buf` holding `len` bytes as `argument` requires
                // (this fn's contract); `argument` checks `buf` for null and `len` for range.
                Value::ByteStringFilter(unsafe { argument(len, buf) }?, op)
            }
            Item::Bag(h) => Value::Bag(h),
        })
    }
}

fn bag_ccsid(b: &Bag) -> MQLONG {
    match b.items.first() {
        Some((MQIASY_CODED_CHAR_SET_ID, Value::Integer(c))) => *c,
        _ => 0,
    }
}

/// The mqAdd* calls.
///
/// # Safety
/// The buffer of a string or byte-string `item` must be null, or hold its length in readable
/// bytes, or (length MQBL_NULL_TERMINATED) point to a null-terminated string.
pub unsafe fn add(hbag: MQLONG, selector: MQLONG, item: Item) -> Outcome {
    if let Item::Bag(nested) = item {
        let mut bags = BAGS.lock().unwrap_or_else(|e| e.into_inner());
        match bags.bags.get(&nested) {
            Some(n) if n.options & MQCBO_GROUP_BAG != 0 && nested != hbag => {}
            Some(_) => return Err(Rc::failed(RC_BAG_WRONG_TYPE)),
            None => return Err(Rc::failed(RC_HBAG_ERROR)),
        }
        let bag = bags.bags.get_mut(&hbag).ok_or(Rc::failed(RC_HBAG_ERROR))?;
        return bag.add(selector, Value::Bag(nested));
    }
    with_bag(hbag, |b| {
        // SAFETY: the caller passes the item's buffer as `Item::value` requires (this fn's
        // contract); it checks the buffer for null and the length for range.
        let value = unsafe { item.value(bag_ccsid(b)) }?;
        b.add(selector, value)
    })
}

/// mqAddInquiry: asks an administration command for attribute `selector`.
pub fn add_inquiry(hbag: MQLONG, selector: MQLONG) -> Outcome {
    with_bag(hbag, |b| {
        if b.options & MQCBO_ADMIN_BAG == 0 {
            return Err(Rc::failed(RC_BAG_WRONG_TYPE));
        }
        if selector < 0 {
            return Err(Rc::failed(RC_SELECTOR_OUT_OF_RANGE));
        }
        if b.items.len() >= MAX_ITEMS {
            return Err(Rc::failed(RC_STORAGE_NOT_AVAILABLE));
        }
        b.items.push((MQIACF_INQUIRY, Value::Integer(selector)));
        Ok(None)
    })
}

/// The mqSet* calls.
///
/// # Safety
/// As [`add`]: the buffer of a string or byte-string `item` must be null, hold its length in
/// bytes, or be a null-terminated string.
pub unsafe fn set(hbag: MQLONG, selector: MQLONG, index: MQLONG, item: Item) -> Outcome {
    with_bag(hbag, |b| {
        // SAFETY: the caller passes the item's buffer as `Item::value` requires (this fn's
        // contract); it checks the buffer for null and the length for range.
        let value = unsafe { item.value(bag_ccsid(b)) }?;
        b.set(selector, index, value)
    })
}

/// What an inquire call asks for and where its answer goes.
#[derive(Debug)]
pub enum Query {
    /// mqInquireInteger.
    Integer(*mut MQLONG),
    /// mqInquireInteger64.
    Integer64(*mut i64),
    /// mqInquireIntegerFilter (value, operator).
    IntegerFilter(*mut MQLONG, *mut MQLONG),
    /// mqInquireString (buffer length, buffer, string length, ccsid).
    String(MQLONG, *mut u8, *mut MQLONG, *mut MQLONG),
    /// mqInquireStringFilter (buffer length, buffer, string length, ccsid, operator).
    StringFilter(MQLONG, *mut u8, *mut MQLONG, *mut MQLONG, *mut MQLONG),
    /// mqInquireByteString (buffer length, buffer, length).
    ByteString(MQLONG, *mut u8, *mut MQLONG),
    /// mqInquireByteStringFilter (buffer length, buffer, length, operator).
    ByteStringFilter(MQLONG, *mut u8, *mut MQLONG, *mut MQLONG),
    /// mqInquireBag.
    Bag(*mut MQLONG),
    /// mqInquireItemInfo (selector, item type).
    ItemInfo(*mut MQLONG, *mut MQLONG),
}

/// Writes `value` into the caller's buffer of `len` bytes, padded with `pad`; a warning
/// (MQRC_STRING_TRUNCATED) when it does not fit.
///
/// # Safety
/// `buf` must be null or valid for `len` writable bytes; `out_len` null or valid for an MQLONG
/// write.
unsafe fn copy_out(
    value: &[u8],
    len: MQLONG,
    buf: *mut u8,
    out_len: *mut MQLONG,
    pad: u8,
) -> Outcome {
    if len < 0 {
        return Err(Rc::failed(RC_BUFFER_LENGTH_ERROR));
    }
    if len > 0 && buf.is_null() {
        return Err(Rc::failed(RC_BUFFER_ERROR));
    }
    let n = value.len().min(len as usize);
    if len > 0 {
        // SAFETY: the caller passes `buf` holding `len` writable bytes (MQAI contract); `len`
        // is positive here and `buf` checked non-null above.
        let dst = unsafe { std::slice::from_raw_parts_mut(buf, len as usize) };
        dst[..n].copy_from_slice(&value[..n]);
        dst[n..].fill(pad);
    }
    if !out_len.is_null() {
        // SAFETY: the caller passes `out_len` as null or valid for an MQLONG write (MQAI
        // contract), checked non-null just above.
        unsafe { *out_len = value.len() as MQLONG };
    }
    Ok((n < value.len()).then_some(RC_STRING_TRUNCATED))
}

/// Writes `v` to the caller's output `p`, unless it is null.
///
/// # Safety
/// `p` must be null or valid for a write of a `T`.
unsafe fn store<T>(p: *mut T, v: T) {
    if !p.is_null() {
        // SAFETY: the caller passes `p` as null or valid for a `T` write (this fn's contract),
        // checked non-null just above.
        unsafe { *p = v };
    }
}

/// The mqInquire* calls.
///
/// # Safety
/// Every output pointer in `query` must be null or valid for a write of its type (an MQLONG,
/// or an i64 for mqInquireInteger64); every buffer null or valid for its length in writable
/// bytes.
pub unsafe fn inquire(hbag: MQLONG, selector: MQLONG, index: MQLONG, query: Query) -> Outcome {
    let (sel, value) = with_bag(hbag, |b| {
        let at = b.locate(selector, index)?;
        Ok(b.items[at].clone())
    })?;
    match (query, value) {
        (Query::ItemInfo(out_sel, out_type), value) => {
            if out_sel.is_null() {
                return Err(Rc::failed(RC_OUT_SELECTOR_ERROR));
            }
            if out_type.is_null() {
                return Err(Rc::failed(RC_ITEM_TYPE_ERROR));
            }
            // SAFETY: the caller passes `out_sel` valid for an MQLONG write (MQAI contract),
            // checked non-null above.
            unsafe { *out_sel = sel };
            // SAFETY: the caller passes `out_type` valid for an MQLONG write (MQAI contract),
            // checked non-null above.
            unsafe { *out_type = value.item_type() };
            Ok(None)
        }
        // SAFETY: the caller passes the query's pointers null or valid for their writes and
        // its buffer for its length (this fn's contract), as `answer` requires.
        (query, value) => unsafe { answer(query, value) },
    }
}

/// The answer to an mqInquire* call but mqInquireItemInfo: the item's value, written to the
/// query's outputs; MQRC_SELECTOR_WRONG_TYPE when the item is not of the type asked for.
///
/// # Safety
/// As [`inquire`]: the query's output pointers null or valid for a write of their type, its
/// buffer null or valid for its length in writable bytes.
unsafe fn answer(query: Query, value: Value) -> Outcome {
    match (query, value) {
        (Query::Integer(p), Value::Integer(v)) => {
            // SAFETY: the caller passes `p` null or valid for an MQLONG write (MQAI contract);
            // `store` checks for null.
            unsafe { store(p, v) };
            Ok(None)
        }
        // An integer item reads as a 64-bit one, as MQAI allows.
        (Query::Integer64(p), Value::Integer64(v)) => {
            // SAFETY: the caller passes `p` null or valid for an i64 write (MQAI contract);
            // `store` checks for null.
            unsafe { store(p, v) };
            Ok(None)
        }
        (Query::Integer64(p), Value::Integer(v)) => {
            // SAFETY: the caller passes `p` null or valid for an i64 write (MQAI contract);
            // `store` checks for null.
            unsafe { store(p, v as i64) };
            Ok(None)
        }
        (Query::IntegerFilter(p, op), Value::IntegerFilter(v, o)) => {
            // SAFETY: the caller passes `p` null or valid for an MQLONG write (MQAI contract);
            // `store` checks for null.
            unsafe { store(p, v) };
            // SAFETY: the caller passes `op` null or valid for an MQLONG write (MQAI contract);
            // `store` checks for null.
            unsafe { store(op, o) };
            Ok(None)
        }
        (Query::Bag(p), Value::Bag(h)) => {
            // SAFETY: the caller passes `p` null or valid for an MQLONG write (MQAI contract);
            // `store` checks for null.
            unsafe { store(p, h) };
            Ok(None)
        }
        // SAFETY: the caller passes the query's pointers null or valid for their writes and
        // its buffer for its length (this fn's contract), as `answer_string` requires.
        (query, value) => unsafe { answer_string(query, value) },
    }
}

/// [`answer`] for the string and byte-string queries: the item's bytes into the query's
/// buffer (blank- or null-padded), its length, CCSID and operator to their outputs.
///
/// # Safety
/// The query's `buf` must be null or valid for its `len` writable bytes; its `out_len`,
/// `ccsid` and `op` each null or valid for an MQLONG write.
unsafe fn answer_string(query: Query, value: Value) -> Outcome {
    match (query, value) {
        (Query::String(len, buf, out_len, ccsid), Value::String(s, c)) => {
            // SAFETY: the caller passes `ccsid` null or valid for an MQLONG write (MQAI
            // contract); `store` checks for null.
            unsafe { store(ccsid, c) };
            // SAFETY: the caller passes `buf` null or holding `len` writable bytes and `out_len`
            // null or valid for an MQLONG write (MQAI contract); `copy_out` checks both.
            unsafe { copy_out(&s, len, buf, out_len, b' ') }
        }
        (Query::StringFilter(len, buf, out_len, ccsid, op), Value::StringFilter(s, c, o)) => {
            // SAFETY: the caller passes `ccsid` null or valid for an MQLONG write (MQAI
            // contract); `store` checks for null.
            unsafe { store(ccsid, c) };
            // SAFETY: the caller passes `op` null or valid for an MQLONG write (MQAI contract);
            // `store` checks for null.
            unsafe { store(op, o) };
            // SAFETY: the caller passes `buf` null or holding `len` writable bytes and `out_len`
            // null or valid for an MQLONG write (MQAI contract); `copy_out` checks both.
            unsafe { copy_out(&s, len, buf, out_len, b' ') }
        }
        (Query::ByteString(len, buf, out_len), Value::ByteString(s)) => {
            // SAFETY: the caller passes `buf` null or holding `len` writable bytes and `out_len`
            // null or valid for an MQLONG write (MQAI contract); `copy_out` checks both.
            unsafe { copy_out(&s, len, buf, out_len, 0) }
        }
        (Query::ByteStringFilter(len, buf, out_len, op), Value::ByteStringFilter(s, o)) => {
            // SAFETY: the caller passes `op` null or valid for an MQLONG write (MQAI contract);
            // `store` checks for null.
            unsafe { store(op, o) };
            // SAFETY: the caller passes `buf` null or holding `len` writable bytes and `out_len`
            // null or valid for an MQLONG write (MQAI contract); `copy_out` checks both.
            unsafe { copy_out(&s, len, buf, out_len, 0) }
        }
        _ => Err(Rc::failed(RC_SELECTOR_WRONG_TYPE)),
    }
}

/// mqTrim: copies a blank-padded field into a null-terminated string without its trailing
/// blanks. `out` must hold `len + 1` bytes.
///
/// # Safety
/// `buf` must be null or valid for `len` readable bytes, `out` null or valid for `len + 1`
/// writable bytes (they may overlap).
pub unsafe fn trim(len: MQLONG, buf: *const u8, out: *mut u8) -> Outcome {
    if len < 0 {
        return Err(Rc::failed(RC_BUFFER_LENGTH_ERROR));
    }
    if buf.is_null() || out.is_null() {
        return Err(Rc::failed(RC_BUFFER_ERROR));
    }
    // SAFETY: the caller passes `buf` holding `len` readable bytes (MQAI contract); `len`
    // checked non-negative and `buf` non-null above.
    let src = unsafe { std::slice::from_raw_parts(buf, len as usize) };
    let end = src.iter().rposition(|&c| c != b' ').map_or(0, |i| i + 1);
    // SAFETY: `end <= len`: `buf` holds `len` readable bytes and `out` (non-null, checked
    // above) `len + 1` writable ones (MQAI contract); ptr::copy, as MQAI allows the output to
    // be the input buffer.
    unsafe { std::ptr::copy(buf, out, end) };
    // SAFETY: `end <= len`, and the caller passes `out` holding `len + 1` writable bytes (MQAI
    // contract), checked non-null above: `out + end` is inside them.
    let last = unsafe { out.add(end) };
    // SAFETY: `last` (`out + end`, just above) is one of the caller's `len + 1` writable bytes.
    unsafe { *last = 0 };
    Ok(None)
}

/// mqPad: copies a null-terminated string into a field of `len` bytes, padded with blanks.
///
/// # Safety
/// `s` must be null or a null-terminated string; `buf` null or valid for `len` writable bytes.
pub unsafe fn pad(s: *const u8, len: MQLONG, buf: *mut u8) -> Outcome {
    if len < 0 {
        return Err(Rc::failed(RC_BUFFER_LENGTH_ERROR));
    }
    if s.is_null() || (len > 0 && buf.is_null()) {
        return Err(Rc::failed(RC_BUFFER_ERROR));
    }
    // SAFETY: the caller passes `s` as a null-terminated string (MQAI contract), checked
    // non-null above.
    let value = unsafe { std::ffi::CStr::from_ptr(s.cast()) }
        .to_bytes()
        .to_vec();
    // SAFETY: the caller passes `buf` holding `len` writable bytes (MQAI contract); `len`
    // checked non-negative and `buf` non-null when it is positive, above; no `out_len`.
    unsafe { copy_out(&value, len, buf, std::ptr::null_mut(), b' ') }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(out: Outcome) {
        assert!(out.is_ok(), "{out:?}");
    }

    fn reason(out: Outcome) -> u32 {
        match out {
            Err(Rc(_, r)) => r,
            Ok(Some(w)) => w,
            Ok(None) => 0,
        }
    }

    #[test]
    fn items_added_are_counted_inquired_typed_and_deleted() {
        // SAFETY: every pointer passed below is to a local (`h`, `n`, `v`, `buf`, `len`,
        // `ccsid`, `sel`, `ty`, `gone`) or a literal, valid for the length passed with it; the
        // `-1` length goes with a null-terminated C string literal.
        unsafe {
            let mut h = 0;
            ok(create(MQCBO_ADMIN_BAG, &mut h));
            ok(add(h, 20, Item::Integer(7)));
            ok(add(h, 20, Item::Integer(8)));
            ok(add(h, 2016, Item::String(-1, c"Q1".as_ptr().cast())));
            ok(add_inquiry(h, 3));
            let mut n = 0;
            ok(count(h, 20, &mut n));
            assert_eq!(n, 2);
            ok(count(h, MQSEL_ANY_USER_SELECTOR, &mut n));
            assert_eq!(n, 4);
            ok(count(h, MQSEL_ANY_SYSTEM_SELECTOR, &mut n));
            assert_eq!(n, 2);
            let mut v = 0;
            assert_eq!(
                reason(inquire(h, 20, MQIND_NONE, Query::Integer(&mut v))),
                2305
            );
            ok(inquire(h, 20, 1, Query::Integer(&mut v)));
            assert_eq!(v, 8);
            assert_eq!(reason(inquire(h, 20, 2, Query::Integer(&mut v))), 2306);
            assert_eq!(reason(inquire(h, 21, 0, Query::Integer(&mut v))), 2309);
            let mut buf = [0u8; 4];
            let (mut len, mut ccsid) = (0, -5);
            ok(inquire(
                h,
                2016,
                MQIND_NONE,
                Query::String(4, buf.as_mut_ptr(), &mut len, &mut ccsid),
            ));
            assert_eq!((&buf, len, ccsid), (b"Q1  ", 2, 0));
            assert_eq!(
                reason(inquire(
                    h,
                    2016,
                    0,
                    Query::String(1, buf.as_mut_ptr(), &mut len, &mut ccsid)
                )),
                2311
            );
            assert_eq!(reason(inquire(h, 2016, 0, Query::Integer(&mut v))), 2312);
            let (mut sel, mut ty) = (0, 0);
            ok(inquire(
                h,
                MQSEL_ANY_USER_SELECTOR,
                3,
                Query::ItemInfo(&mut sel, &mut ty),
            ));
            assert_eq!((sel, ty), (MQIACF_INQUIRY, 1));
            ok(inquire(
                h,
                MQIASY_BAG_OPTIONS,
                MQIND_NONE,
                Query::Integer(&mut v),
            ));
            assert_eq!(v, MQCBO_ADMIN_BAG);
            // Types stay consistent; admin bags check the selector's kind.
            assert_eq!(reason(add(h, 20, Item::String(1, b"x".as_ptr()))), 2304);
            ok(add(h, 5000, Item::Integer(1)));
            assert_eq!(reason(add(h, 5000, Item::String(1, b"x".as_ptr()))), 2313);
            ok(delete_item(h, 5000, MQIND_ALL));
            assert_eq!(reason(add(h, 2016, Item::Integer(1))), 2304);
            assert_eq!(reason(add(h, -3, Item::Integer(1))), 2304);
            assert_eq!(reason(add(h, 30, Item::IntegerFilter(1, 99))), 2418);
            // Set, delete, truncate, clear.
            ok(set(h, 20, MQIND_ALL, Item::Integer(9)));
            ok(count(h, 20, &mut n));
            assert_eq!(n, 1);
            assert_eq!(
                reason(set(h, MQIASY_BAG_OPTIONS, MQIND_NONE, Item::Integer(0))),
                2302
            );
            assert_eq!(
                reason(delete_item(h, MQIASY_CODED_CHAR_SET_ID, MQIND_NONE)),
                2329
            );
            ok(delete_item(h, 2016, MQIND_NONE));
            ok(truncate(h, 1));
            ok(count(h, MQSEL_ANY_USER_SELECTOR, &mut n));
            assert_eq!(n, 1);
            ok(clear(h));
            ok(count(h, MQSEL_ANY_SELECTOR, &mut n));
            assert_eq!(n, 2);
            let mut gone = h;
            ok(delete(&mut gone));
            assert_eq!(gone, MQHB_UNUSABLE_HBAG);
            assert_eq!(reason(count(h, 20, &mut n)), 2320);
            assert_eq!(reason(create(0x1000, &mut gone)), 2046);
        }
    }

    #[test]
    fn group_bags_nest_and_user_bags_take_any_selector() {
        // SAFETY: every pointer passed below is to a local (`outer`, `group`, `plain`, `got`,
        // `buf`, `len`, `trimmed`, `h`) or a literal, valid for the length passed with it;
        // `trimmed` holds 6 bytes, the 5 + 1 that mqTrim of 5 bytes writes.
        unsafe {
            let (mut outer, mut group, mut plain) = (0, 0, 0);
            ok(create(0, &mut outer));
            ok(create(MQCBO_GROUP_BAG, &mut group));
            ok(create(0, &mut plain));
            ok(add(outer, 5000, Item::Integer(1)));
            ok(add(outer, 9, Item::ByteString(3, b"\x01\x02\x03".as_ptr())));
            assert_eq!(reason(add(outer, 8, Item::Bag(plain))), 2326);
            ok(add(outer, 8, Item::Bag(group)));
            let mut got = 0;
            ok(inquire(outer, 8, MQIND_NONE, Query::Bag(&mut got)));
            assert_eq!(got, group);
            let mut buf = [9u8; 5];
            let mut len = 0;
            ok(inquire(
                outer,
                9,
                0,
                Query::ByteString(5, buf.as_mut_ptr(), &mut len),
            ));
            assert_eq!((buf, len), ([1, 2, 3, 0, 0], 3));
            let mut trimmed = [0u8; 6];
            ok(trim(5, b"AB   ".as_ptr(), trimmed.as_mut_ptr()));
            assert_eq!(&trimmed[..3], b"AB\0");
            for mut h in [outer, group, plain] {
                ok(delete(&mut h));
            }
        }
    }
}
