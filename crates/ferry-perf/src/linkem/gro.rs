//! A network card's offloads at each end of the emulated link. Sending: the host hands the
//! card whole UDP send batches (segmentation offload, USO) and packets with their checksum
//! left to the card; [`segments`] cuts a batch into datagrams and completes every checksum,
//! so what goes on the wire is what a card would send. Receiving, as a card's GRO does: consecutive
//! UDP datagrams of one flow that reach the host together are handed to its kernel as one
//! segmented packet (a virtio-net header of type UDP_L4 ahead of one IPv4 + UDP header and the
//! datagrams' payloads), which a socket with UDP_GRO on takes in one read; anything else goes
//! as it came, behind a header that asks nothing of the kernel.
//!
//! Layout of a coalesced write: [`VNET_HDR_LEN`] bytes of header (NEEDS_CSUM, checksum from
//! byte 20, at offset 6 of the UDP header; `gso_size` the first datagram's payload), the first
//! datagram's IPv4 header with its total length and header checksum rewritten, its UDP header
//! with the length rewritten and the pseudo-header sum as the partial checksum, then each
//! datagram's payload in order.
//!
//! Invariants: a group is datagrams of one flow (addresses, ports) with plain IPv4 headers
//! (20 bytes, not fragments), each payload as long as the first but the last (which may be
//! shorter and ends the group), at most [`MAX_SEGMENTS`] and within an IPv4 packet's length.
//! Each datagram's own UDP checksum is not carried: a partial checksum is taken as checked,
//! as a card that verified it reports.

/// Bytes of a virtio-net header (TUN's default with IFF_VNET_HDR).
pub(super) const VNET_HDR_LEN: usize = 10;
const VIRTIO_NET_HDR_GSO_NONE: u8 = 0;

/// The wire packets `hdr` (a virtio-net header) and `pkt` make: a segmented UDP batch cut
/// into its datagrams, a packet whose checksum was left to the card completed, each given to
/// `out`; `None` for a header this card does not take (the packet is then dropped, as a card
/// drops what it cannot parse).
pub(super) fn segments(hdr: &[u8], pkt: &[u8], mut out: impl FnMut(&[u8])) -> Option<()> {
    let (flags, gso) = (hdr[0], hdr[1]);
    let gso_size = u16::from_le_bytes([hdr[4], hdr[5]]) as usize;
    let (start, offset) = (
        u16::from_le_bytes([hdr[6], hdr[7]]) as usize,
        u16::from_le_bytes([hdr[8], hdr[9]]) as usize,
    );
    match gso {
        VIRTIO_NET_HDR_GSO_NONE if flags & VIRTIO_NET_HDR_F_NEEDS_CSUM == 0 => out(pkt),
        VIRTIO_NET_HDR_GSO_NONE => {
            if start + offset + 2 > pkt.len() {
                return None;
            }
            let mut p = pkt.to_vec();
            let sum = fold(sum16(&p[start..]));
            let sum = match !sum {
                0 => 0xffff,
                s => s,
            };
            p[start + offset..start + offset + 2].copy_from_slice(&sum.to_be_bytes());
            out(&p);
        }
        VIRTIO_NET_HDR_GSO_UDP_L4 => split_udp(pkt, gso_size, &mut out)?,
        _ => return None,
    }
    Some(())
}

/// Cuts a segmented UDP batch (IPv4, plain header) into datagrams of `size` payload bytes,
/// each with its own lengths, IP id and checksums.
fn split_udp(pkt: &[u8], size: usize, out: &mut impl FnMut(&[u8])) -> Option<()> {
    if size == 0 || pkt.len() < HEADERS || pkt[0] != 0x45 || pkt[9] != 17 {
        return None;
    }
    let id = u16::from_be_bytes([pkt[4], pkt[5]]);
    let mut p = Vec::with_capacity(HEADERS + size);
    for (i, payload) in pkt[HEADERS..].chunks(size).enumerate() {
        p.clear();
        p.extend_from_slice(&pkt[..HEADERS]);
        p.extend_from_slice(payload);
        let (total, udp_len) = ((HEADERS + payload.len()) as u16, (8 + payload.len()) as u16);
        p[2..4].copy_from_slice(&total.to_be_bytes());
        p[4..6].copy_from_slice(&id.wrapping_add(i as u16).to_be_bytes());
        p[10..12].copy_from_slice(&[0, 0]);
        let ip_sum = !fold(sum16(&p[..20]));
        p[10..12].copy_from_slice(&ip_sum.to_be_bytes());
        p[24..26].copy_from_slice(&udp_len.to_be_bytes());
        p[26..28].copy_from_slice(&[0, 0]);
        let sum = sum16(&p[12..20]) + 17 + u32::from(udp_len) + sum16(&p[20..]);
        let sum = match !fold(sum) {
            0 => 0xffff,
            s => s,
        };
        p[26..28].copy_from_slice(&sum.to_be_bytes());
        out(&p);
    }
    Some(())
}

/// The most datagrams one write carries (the kernel takes up to 128; quinn reads up to 64).
pub(super) const MAX_SEGMENTS: usize = 64;
/// IPv4 and UDP headers, bytes.
const HEADERS: usize = 28;
const VIRTIO_NET_HDR_F_NEEDS_CSUM: u8 = 1;
const VIRTIO_NET_HDR_GSO_UDP_L4: u8 = 5;

/// A header that asks nothing: the packet goes as it is.
pub(super) const PLAIN: [u8; VNET_HDR_LEN] = [0; VNET_HDR_LEN];

/// A datagram's flow (addresses and ports) and payload length, when `p` is a plain IPv4 UDP
/// datagram that may be coalesced.
fn flow(p: &[u8]) -> Option<([u8; 12], usize)> {
    let plain_v4 = p.len() >= HEADERS && p[0] == 0x45 && p[9] == 17;
    // Not a fragment: no more-fragments flag and offset 0.
    if !plain_v4 || u16::from_be_bytes([p[6], p[7]]) & 0x3fff != 0 {
        return None;
    }
    let total = u16::from_be_bytes([p[2], p[3]]) as usize;
    if total != p.len() {
        return None;
    }
    let mut key = [0u8; 12];
    key.copy_from_slice(&p[12..24]);
    Some((key, p.len() - HEADERS))
}

/// How many of `packets` (from the first) make one write: 1 when the first cannot be
/// coalesced with the next.
pub(super) fn group_len<'a>(mut packets: impl Iterator<Item = &'a [u8]>) -> usize {
    let Some((key, size)) = packets.next().and_then(flow) else {
        return 1;
    };
    let (mut n, mut total) = (1, size);
    for p in packets {
        match flow(p) {
            Some((k, len)) if k == key && len <= size && total + len + HEADERS <= 65_535 => {
                n += 1;
                total += len;
                if len < size || n == MAX_SEGMENTS {
                    break;
                }
            }
            _ => break,
        }
    }
    n
}

/// The virtio-net, IPv4 and UDP headers of a write coalescing datagrams whose first is
/// `first` and whose payloads total `payload` bytes.
pub(super) fn headers(first: &[u8], payload: usize) -> [u8; VNET_HDR_LEN + HEADERS] {
    debug_assert!(
        flow(first).is_some(),
        "only a plain IPv4 UDP datagram leads a group"
    );
    let seg = (first.len() - HEADERS) as u16;
    let mut h = [0u8; VNET_HDR_LEN + HEADERS];
    h[0] = VIRTIO_NET_HDR_F_NEEDS_CSUM;
    h[1] = VIRTIO_NET_HDR_GSO_UDP_L4;
    h[2..4].copy_from_slice(&(HEADERS as u16).to_le_bytes());
    h[4..6].copy_from_slice(&seg.to_le_bytes());
    h[6..8].copy_from_slice(&20u16.to_le_bytes()); // checksum from the UDP header
    h[8..10].copy_from_slice(&6u16.to_le_bytes()); // its check field
    let ip = &mut h[VNET_HDR_LEN..];
    ip.copy_from_slice(&first[..HEADERS]);
    let (total, udp_len) = ((HEADERS + payload) as u16, (8 + payload) as u16);
    ip[2..4].copy_from_slice(&total.to_be_bytes());
    ip[10..12].copy_from_slice(&[0, 0]);
    let sum = !fold(sum16(&ip[..20]));
    ip[10..12].copy_from_slice(&sum.to_be_bytes());
    ip[24..26].copy_from_slice(&udp_len.to_be_bytes());
    // The pseudo-header's sum, not inverted: the rest is "computed by the card".
    let pseudo = sum16(&ip[12..20]) + 17 + u32::from(udp_len);
    ip[26..28].copy_from_slice(&fold(pseudo).to_be_bytes());
    h
}

/// The one's-complement sum of `b` as 16-bit big-endian words (an odd last byte padded),
/// not yet folded.
fn sum16(b: &[u8]) -> u32 {
    let mut words = b.chunks_exact(2);
    let mut s: u64 = words
        .by_ref()
        .map(|c| u64::from(u16::from_be_bytes([c[0], c[1]])))
        .sum();
    if let [last] = words.remainder() {
        s += u64::from(*last) << 8;
    }
    while s > 0xffff_ffff {
        s = (s & 0xffff_ffff) + (s >> 32);
    }
    s as u32
}

fn fold(mut s: u32) -> u16 {
    while s > 0xffff {
        s = (s & 0xffff) + (s >> 16);
    }
    s as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    fn datagram(src_port: u16, payload: usize) -> Vec<u8> {
        let mut p = vec![0u8; HEADERS + payload];
        p[0] = 0x45;
        p[2..4].copy_from_slice(&((HEADERS + payload) as u16).to_be_bytes());
        p[6] = 0x40; // don't fragment
        p[8] = 64;
        p[9] = 17;
        p[12..16].copy_from_slice(&[10, 0, 0, 1]);
        p[16..20].copy_from_slice(&[10, 0, 0, 2]);
        p[20..22].copy_from_slice(&src_port.to_be_bytes());
        p[22..24].copy_from_slice(&1414u16.to_be_bytes());
        p[24..26].copy_from_slice(&((8 + payload) as u16).to_be_bytes());
        p
    }

    #[test]
    fn a_flow_s_equal_datagrams_group_and_a_shorter_one_ends_the_group() {
        let ps = [
            datagram(5000, 1200),
            datagram(5000, 1200),
            datagram(5000, 700),
            datagram(5000, 1200),
        ];
        assert_eq!(group_len(ps.iter().map(|p| p.as_slice())), 3);
        let other = [datagram(5000, 1200), datagram(5001, 1200)];
        assert_eq!(group_len(other.iter().map(|p| p.as_slice())), 1);
        let many: Vec<_> = (0..100).map(|_| datagram(5000, 1000)).collect();
        assert_eq!(group_len(many.iter().map(|p| p.as_slice())), MAX_SEGMENTS);
        let mut tcp = datagram(5000, 100);
        tcp[9] = 6;
        assert_eq!(group_len([tcp.as_slice(), tcp.as_slice()].into_iter()), 1);
    }

    /// Whether `p`'s UDP checksum checks (sums to all ones with its pseudo-header).
    fn udp_checks(p: &[u8]) -> bool {
        let len = u16::from_be_bytes([p[24], p[25]]);
        fold(sum16(&p[12..20]) + 17 + u32::from(len) + sum16(&p[20..])) == 0xffff
    }

    #[test]
    fn a_segmented_batch_is_cut_into_datagrams_with_their_own_lengths_and_checksums() {
        let mut batch = datagram(5000, 2500);
        for (i, b) in batch[28..].iter_mut().enumerate() {
            *b = i as u8;
        }
        let mut hdr = [0u8; VNET_HDR_LEN];
        hdr[0] = VIRTIO_NET_HDR_F_NEEDS_CSUM;
        hdr[1] = VIRTIO_NET_HDR_GSO_UDP_L4;
        hdr[4..6].copy_from_slice(&1000u16.to_le_bytes());
        let mut got = Vec::new();
        segments(&hdr, &batch, |p| got.push(p.to_vec())).unwrap();
        assert_eq!(
            got.iter().map(|p| p.len()).collect::<Vec<_>>(),
            [1028, 1028, 528]
        );
        for (i, p) in got.iter().enumerate() {
            assert_eq!(fold(sum16(&p[..20])), 0xffff, "IP header {i}");
            assert!(udp_checks(p), "UDP checksum {i}");
            assert_eq!(p[28], (i * 1000) as u8, "payload {i} in order");
        }
        // A packet whose checksum was left to the card leaves with it done.
        let mut one = datagram(5000, 301);
        let pseudo = fold(sum16(&one[12..20]) + 17 + 309);
        one[26..28].copy_from_slice(&pseudo.to_be_bytes());
        let mut hdr = [0u8; VNET_HDR_LEN];
        hdr[0] = VIRTIO_NET_HDR_F_NEEDS_CSUM;
        hdr[6..8].copy_from_slice(&20u16.to_le_bytes());
        hdr[8..10].copy_from_slice(&6u16.to_le_bytes());
        let mut done = Vec::new();
        segments(&hdr, &one, |p| done.push(p.to_vec())).unwrap();
        assert!(udp_checks(&done[0]));
    }

    #[test]
    fn the_coalesced_headers_carry_the_total_and_a_valid_ip_checksum() {
        let first = datagram(5000, 1200);
        let h = headers(&first, 3100);
        assert_eq!(h[1], VIRTIO_NET_HDR_GSO_UDP_L4);
        assert_eq!(u16::from_le_bytes([h[4], h[5]]), 1200);
        let ip = &h[VNET_HDR_LEN..];
        assert_eq!(u16::from_be_bytes([ip[2], ip[3]]), 28 + 3100);
        assert_eq!(u16::from_be_bytes([ip[24], ip[25]]), 8 + 3100);
        assert_eq!(
            fold(sum16(&ip[..20])),
            0xffff,
            "the IPv4 header sums to all ones"
        );
    }
}
