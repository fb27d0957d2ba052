//! A bound on a BBR connection's bytes in flight after a round of heavy loss — BBRv2's
//! `inflight_hi`, simplified. quinn's BBR (v1) takes no notice of loss, and quinn paces at
//! 1.25 × window ÷ round trip, where BBR's window is twice its estimate of the path's
//! bandwidth-delay product: when that estimate runs high (a busy receiver's acknowledgements
//! come late and bunched), the connection keeps more in flight than the bottleneck's buffer
//! holds and loses packets at it all along (on the emulated clean link, 1.7 % of them — each a
//! stall of the stream behind it). Random loss (a lossy radio, N3's 0.5 %) stays below the
//! threshold and changes nothing.
//!
//! Rules, per round (a smoothed round trip of acknowledgements):
//! - a round that lost at least [`LOSS_MIN_PACKETS`] packets' bytes and more than
//!   [`LOSS_THRESHOLD`] of what it settled (acknowledged + lost) sets the bound to [`BETA`] of
//!   the most that was in flight during the round, and holds it for [`HOLD`];
//! - after the hold, a round that reached 7/8 of the bound without heavy loss raises it by an
//!   eighth (probing for room again);
//! - the window quinn uses is the lesser of BBR's and the bound (none until the first heavy
//!   round).
//!
//! The other way, BBR's window never falls below [`HICCUP`] at its pacing rate
//! ([`hiccup_floor`]): on a short link twice the bandwidth-delay product is a millisecond or
//! two of data, and a sender or receiver thread waiting that long for a CPU left the link idle
//! (one channel of 200 KB on the clean link: 537 msg/s with BBR as quinn has it, 583–585 with
//! the floor, TCP 587–589). The loss bound still has the last word.
//!
//! Invariant: the bound is never below [`MIN_PACKETS`] packets.

use std::time::{Duration, Instant};

/// A round with loss above this share of what it settled is heavy (BBRv2's 2 %).
pub(super) const LOSS_THRESHOLD: f64 = 0.02;
/// Fewer lost packets than this in a round never make it heavy (a few packets of a sparse
/// round — request/reply — are not a full buffer).
pub(super) const LOSS_MIN_PACKETS: u64 = 10;
/// The share of the round's most in flight the bound keeps after a heavy round.
pub(super) const BETA: f64 = 0.7;
/// How long a bound set by a heavy round is held before probing up.
pub(super) const HOLD: Duration = Duration::from_secs(2);
/// The least the bound allows in flight, in packets.
pub(super) const MIN_PACKETS: u64 = 4;

/// What BBR keeps in flight at the least, in time at its pacing rate: the sender's and the
/// receiver's threads share the machine's CPUs and may wait this long for one, and a window of
/// twice a short link's bandwidth-delay product (a millisecond or two) would leave the link
/// idle meanwhile — the kernel's TCP, working in interrupt context, does not wait so.
pub(super) const HICCUP: Duration = Duration::from_millis(5);

/// The least window for a pacing rate of `bytes_per_sec` ([`HICCUP`] of it).
pub(super) fn hiccup_floor(bytes_per_sec: u64) -> u64 {
    (bytes_per_sec as f64 * HICCUP.as_secs_f64()) as u64
}

/// See the module head.
#[derive(Debug, Clone)]
pub(super) struct LossBound {
    /// The most bytes in flight allowed (`u64::MAX`: no heavy round yet).
    bound: u64,
    round_start: Instant,
    acked: u64,
    lost: u64,
    most_in_flight: u64,
    held_until: Instant,
    mtu: u64,
}

impl LossBound {
    pub(super) fn new(now: Instant, mtu: u16) -> Self {
        LossBound {
            bound: u64::MAX,
            round_start: now,
            acked: 0,
            lost: 0,
            most_in_flight: 0,
            held_until: now,
            mtu: u64::from(mtu),
        }
    }

    pub(super) fn sent(&mut self, in_flight: u64) {
        self.most_in_flight = self.most_in_flight.max(in_flight);
    }

    pub(super) fn lost(&mut self, bytes: u64) {
        self.lost = self.lost.saturating_add(bytes);
    }

    pub(super) fn set_mtu(&mut self, mtu: u16) {
        self.mtu = u64::from(mtu);
    }

    /// `bytes` acknowledged at `now`; ends the round once `srtt` has passed since it began.
    pub(super) fn acked(&mut self, now: Instant, bytes: u64, srtt: Duration, in_flight: u64) {
        self.acked = self.acked.saturating_add(bytes);
        if now.saturating_duration_since(self.round_start) < srtt.max(Duration::from_millis(1)) {
            return;
        }
        self.end_round(now);
        self.round_start = now;
        self.acked = 0;
        self.lost = 0;
        self.most_in_flight = in_flight;
    }

    fn end_round(&mut self, now: Instant) {
        let settled = self.acked.saturating_add(self.lost);
        let heavy = self.lost >= LOSS_MIN_PACKETS * self.mtu
            && self.lost as f64 > LOSS_THRESHOLD * settled as f64;
        let least = MIN_PACKETS * self.mtu;
        if heavy {
            self.bound = ((self.most_in_flight as f64 * BETA) as u64).max(least);
            self.held_until = now + HOLD;
        } else if self.bound != u64::MAX
            && now >= self.held_until
            && self.most_in_flight >= self.bound - self.bound / 8
        {
            self.bound = self.bound.saturating_add(self.bound / 8);
        }
        debug_assert!(self.bound >= least, "bound {} below {least}", self.bound);
    }

    /// The window to use given the wrapped controller's.
    pub(super) fn window(&self, inner: u64) -> u64 {
        inner.min(self.bound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MTU: u16 = 1200;

    /// One round: `sent` bytes in flight at most, `acked` and `lost` bytes settled, ending
    /// `rtt` after the last.
    fn round(b: &mut LossBound, at: &mut Instant, (sent, acked, lost): (u64, u64, u64)) {
        let rtt = Duration::from_millis(10);
        b.sent(sent);
        b.lost(lost);
        *at += rtt;
        b.acked(*at, acked, rtt, sent.saturating_sub(acked + lost));
    }

    #[test]
    fn a_round_of_heavy_loss_bounds_the_flight_and_random_loss_does_not() {
        let mut at = Instant::now();
        let mut b = LossBound::new(at, MTU);
        let mss = u64::from(MTU);
        // 0.5 % random loss over full rounds: no bound.
        for _ in 0..50 {
            round(&mut b, &mut at, (2_000 * mss, 995 * mss, 5 * mss));
        }
        assert_eq!(b.window(u64::MAX), u64::MAX, "random loss bounds nothing");
        // A sparse round losing 3 of 20 packets: too few packets to count.
        round(&mut b, &mut at, (20 * mss, 17 * mss, 3 * mss));
        assert_eq!(
            b.window(u64::MAX),
            u64::MAX,
            "a few packets of a sparse round"
        );
        // An overflowing round: 5 % lost.
        round(&mut b, &mut at, (1_000 * mss, 950 * mss, 50 * mss));
        let bound = b.window(u64::MAX);
        assert_eq!(bound, 700 * mss, "0.7 of the most in flight");
        assert_eq!(
            b.window(100 * mss),
            100 * mss,
            "BBR's own window when smaller"
        );
        // Held: rounds at the bound without loss do not raise it within HOLD.
        round(&mut b, &mut at, (bound, bound, 0));
        assert_eq!(b.window(u64::MAX), bound, "held");
        at += HOLD;
        round(&mut b, &mut at, (bound, bound, 0));
        assert_eq!(
            b.window(u64::MAX),
            bound + bound / 8,
            "probes up after the hold"
        );
        // A round well under the bound does not raise it.
        let now = b.window(u64::MAX);
        round(&mut b, &mut at, (now / 2, now / 2, 0));
        assert_eq!(b.window(u64::MAX), now, "not raised when not reached");
    }

    #[test]
    fn the_floor_is_five_milliseconds_at_the_pacing_rate() {
        assert_eq!(hiccup_floor(125_000_000), 625_000, "1 Gbit/s");
        assert_eq!(hiccup_floor(0), 0, "no rate measured yet: BBR's own window");
    }
}
