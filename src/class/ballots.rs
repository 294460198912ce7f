//! The room's votes: which device chose what in each round of each
//! question, and the limits a device is held to. Pure (the clock is passed
//! in), so the server's rules are tested without a network.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// A phone, by the random id the server gave it in a cookie.
pub type Device = u128;

/// How much one device, one address and the room may take.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// Devices in the room at most (each an id the server gave out).
    pub devices: usize,
    /// New device ids one address may be given: a phone that clears its
    /// cookies is a new device, so this bounds the votes one person can
    /// cast by asking again and again.
    pub devices_per_address: usize,
    /// A device's burst of votes, then one each `refill`.
    pub burst: u32,
    pub refill: Duration,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            devices: 2000,
            devices_per_address: 6,
            burst: 6,
            refill: Duration::from_millis(500),
        }
    }
}

/// Why a vote was not counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// No such device: an id the server never gave.
    Unknown,
    /// Not the question open now (another step or round, or revealed).
    Closed,
    /// No such choice.
    NoChoice,
    /// Votes faster than a person taps.
    TooFast,
}

/// The question the room may vote on now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Open {
    pub step: usize,
    pub round: u8,
    pub choices: usize,
}

#[derive(Debug)]
struct Phone {
    /// Tokens left for votes, refilled with time.
    tokens: f64,
    at: Instant,
}

#[derive(Debug, Default)]
pub struct Ballots {
    phones: HashMap<Device, Phone>,
    /// New ids given to each address.
    given: HashMap<IpAddr, usize>,
    /// Each device's choice, per (step, round).
    votes: HashMap<(usize, u8), HashMap<Device, usize>>,
}

impl Ballots {
    /// A new device for a phone at `from`, unless the room or that
    /// address has all it may have.
    pub fn join(&mut self, device: Device, from: IpAddr, now: Instant, b: &Bounds) -> bool {
        let given = self.given.get(&from).copied().unwrap_or(0);
        if self.phones.len() >= b.devices || given >= b.devices_per_address {
            return false;
        }
        self.given.insert(from, given + 1);
        let tokens = f64::from(b.burst);
        self.phones.insert(device, Phone { tokens, at: now });
        true
    }

    pub fn knows(&self, device: Device) -> bool {
        self.phones.contains_key(&device)
    }

    /// Count `choice` (0-based) from `device` for `open`'s round, in place
    /// of the device's earlier choice in it: the counts per choice after.
    pub fn vote(
        &mut self,
        device: Device,
        asked: (usize, u8),
        choice: usize,
        open: Option<Open>,
        now: Instant,
        b: &Bounds,
    ) -> Result<Vec<u32>, Refused> {
        let phone = self.phones.get_mut(&device).ok_or(Refused::Unknown)?;
        let open = open
            .filter(|o| (o.step, o.round) == asked)
            .ok_or(Refused::Closed)?;
        if choice >= open.choices {
            return Err(Refused::NoChoice);
        }
        let refilled =
            now.saturating_duration_since(phone.at).as_secs_f64() / b.refill.as_secs_f64();
        phone.tokens = (phone.tokens + refilled).min(f64::from(b.burst));
        phone.at = now;
        if phone.tokens < 1.0 {
            return Err(Refused::TooFast);
        }
        phone.tokens -= 1.0;
        let round = self.votes.entry(asked).or_default();
        round.insert(device, choice);
        Ok(counts(round, open.choices))
    }

    /// The device's choice in a round, if it made one.
    pub fn mine(&self, device: Device, asked: (usize, u8)) -> Option<usize> {
        self.votes.get(&asked)?.get(&device).copied()
    }
}

fn counts(round: &HashMap<Device, usize>, choices: usize) -> Vec<u32> {
    let mut out = vec![0; choices];
    for &c in round.values() {
        out[c] += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOME: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    fn open(step: usize, round: u8) -> Option<Open> {
        Some(Open {
            step,
            round,
            choices: 3,
        })
    }

    #[test]
    fn one_vote_per_device_per_round_changeable_until_closed() {
        let b = Bounds::default();
        let mut ballots = Ballots::default();
        let t = Instant::now();
        assert!(ballots.join(1, HOME, t, &b));
        assert!(ballots.join(2, HOME, t, &b));
        assert_eq!(
            ballots.vote(1, (4, 1), 0, open(4, 1), t, &b),
            Ok(vec![1, 0, 0])
        );
        // Changed, not added.
        assert_eq!(
            ballots.vote(1, (4, 1), 2, open(4, 1), t, &b),
            Ok(vec![0, 0, 1])
        );
        assert_eq!(
            ballots.vote(2, (4, 1), 2, open(4, 1), t, &b),
            Ok(vec![0, 0, 2])
        );
        assert_eq!(ballots.mine(1, (4, 1)), Some(2));
        // The second round counts afresh; the first is kept.
        assert_eq!(
            ballots.vote(1, (4, 2), 1, open(4, 2), t, &b),
            Ok(vec![0, 1, 0])
        );
        assert_eq!(ballots.mine(1, (4, 1)), Some(2));
        // A round no longer open, a question not open, a device never given.
        assert_eq!(
            ballots.vote(2, (4, 1), 0, open(4, 2), t, &b),
            Err(Refused::Closed)
        );
        assert_eq!(
            ballots.vote(2, (4, 2), 0, None, t, &b),
            Err(Refused::Closed)
        );
        assert_eq!(
            ballots.vote(9, (4, 2), 0, open(4, 2), t, &b),
            Err(Refused::Unknown)
        );
        assert_eq!(
            ballots.vote(2, (4, 2), 3, open(4, 2), t, &b),
            Err(Refused::NoChoice)
        );
    }

    #[test]
    fn a_flood_is_refused_and_the_room_and_an_address_are_bounded() {
        let b = Bounds {
            devices: 3,
            devices_per_address: 2,
            ..Bounds::default()
        };
        let mut ballots = Ballots::default();
        let t = Instant::now();
        assert!(ballots.join(1, HOME, t, &b));
        assert!(ballots.join(2, HOME, t, &b));
        assert!(!ballots.join(3, HOME, t, &b), "a third id for one address");
        let other = IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 2));
        assert!(ballots.join(3, other, t, &b));
        let elsewhere = IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 3));
        assert!(!ballots.join(4, elsewhere, t, &b), "the room is full");
        let sent: Vec<_> = (0..20)
            .map(|i| ballots.vote(1, (4, 1), i % 3, open(4, 1), t, &b))
            .collect();
        let counted = sent.iter().filter(|r| r.is_ok()).count();
        assert_eq!(counted, b.burst as usize);
        assert_eq!(sent.last(), Some(&Err(Refused::TooFast)));
        // After a while, one more.
        let later = t + b.refill;
        assert!(ballots.vote(1, (4, 1), 0, open(4, 1), later, &b).is_ok());
    }
}
