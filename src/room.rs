//! The room of `--class` as the app state keeps it: plain data, below
//! the app, which holds it (`App::class`). The server and the link that
//! feeds these counts from it are `class/`.

use std::collections::{BTreeMap, BTreeSet};
use std::net::IpAddr;

/// What the app keeps of the room: plain data, part of `App`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Class {
    /// The address the phones open, or why the room could not open (the
    /// lesson runs without it).
    pub join: Result<String, Unopened>,
    /// Phones connected now.
    pub present: usize,
    /// Each asked step's counts per choice, one list per round: the first
    /// vote, then the vote after discussion (`SecondRound`).
    pub tallies: BTreeMap<usize, Vec<Vec<u32>>>,
    /// The steps whose counts were revealed (frozen then).
    pub revealed: BTreeSet<usize>,
}

impl Class {
    pub fn new(join: Result<String, Unopened>) -> Self {
        Class {
            join,
            present: 0,
            tallies: BTreeMap::new(),
            revealed: BTreeSet::new(),
        }
    }

    /// The round open on `step`'s question: 1, or 2 after a second round.
    pub fn round(&self, step: usize) -> u8 {
        self.tallies.get(&step).map_or(1, |r| r.len().max(1) as u8)
    }

    /// How many answered `step` in its latest round.
    pub fn answered(&self, step: usize, round: u8) -> u32 {
        self.tallies
            .get(&step)
            .and_then(|r| r.get(usize::from(round) - 1))
            .map_or(0, |c| c.iter().sum())
    }

    /// Freeze `step`'s counts as they are: the room sees them.
    pub fn reveal(&mut self, step: usize, choices: usize) {
        let rounds = self.tallies.entry(step).or_default();
        if rounds.is_empty() {
            rounds.push(vec![0; choices]);
        }
        self.revealed.insert(step);
    }

    /// Peer instruction: the first vote is kept, and the room votes again.
    /// Once per question, before its reveal.
    pub fn second_round(&mut self, step: usize, choices: usize) {
        if self.revealed.contains(&step) {
            return;
        }
        let rounds = self.tallies.entry(step).or_default();
        if rounds.is_empty() {
            rounds.push(vec![0; choices]);
        }
        if rounds.len() == 1 {
            rounds.push(vec![0; choices]);
        }
    }
}

/// Why the room did not open; the lesson runs without it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unopened {
    /// No LAN address the phones could reach.
    NoNetwork,
    PortInUse(u16),
    /// `--class-addr` names an address this machine does not have.
    NotHere(IpAddr),
    Other(String),
}
