//! Boxes, as isolate gives them: run as root, the referee starts each sandboxed process tree
//! (a bot, a build, a look at a toolchain) under a user and group id of its own, taken from a
//! range the organiser may set. The limits the kernel keeps per user (the processes limit,
//! RLIMIT_NPROC) then hold per box: one contestant's forking build cannot make another's fail
//! with "Cannot fork", and no box can signal another's processes.
//!
//! One pool serves the whole process, so no two live boxes share an id. A box's id goes back
//! to the pool when its process has ended, at the back of the queue: the ids of a box just
//! ended are the last to be given again, leaving its last processes (killed with the PID
//! namespace of bubblewrap) time to be gone.
//!
//! Not run as root, the referee cannot change user: every box runs as the user running the
//! referee, and shares that user's processes limit. It says so once per run.

use std::collections::VecDeque;
use std::fmt;
use std::io::Write;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

/// The user and group ids boxes are given: `count` ids from `first`, each id used as both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoxIds {
    /// The first id of the range.
    pub first: u32,
    /// How many boxes may be live at once.
    pub count: u32,
}

impl Default for BoxIds {
    /// isolate's range, 60000-60999: above the ids distributions give to people and services,
    /// below `nobody` (65534).
    fn default() -> BoxIds {
        BoxIds {
            first: 60_000,
            count: 1000,
        }
    }
}

/// A range of box ids that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoxIdsError {
    /// Not `FIRST-LAST` with two numbers, the first no larger than the last.
    #[error("'{0}' is not a range of user ids FIRST-LAST (for example 60000-60999)")]
    Syntax(String),
    /// The range holds an id that must not be a box's: root's, `nobody`'s, or -1 (which
    /// the system calls read as "unchanged").
    #[error("the box ids {range} hold {id}, which is {what}: choose a range without it (for example 60000-60999)")]
    Reserved {
        /// The range given.
        range: String,
        /// The id it must not hold.
        id: u32,
        /// Whose id it is.
        what: &'static str,
    },
    /// The pool was made with another range, by an earlier box or an earlier setting.
    #[error("the box ids are already {0} for this run")]
    AlreadySet(BoxIds),
}

impl fmt::Display for BoxIds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let last = u64::from(self.first) + u64::from(self.count) - 1;
        write!(f, "{}-{last}", self.first)
    }
}

impl FromStr for BoxIds {
    type Err = BoxIdsError;

    /// Reads `60000-60999`.
    fn from_str(text: &str) -> Result<BoxIds, BoxIdsError> {
        let syntax = || BoxIdsError::Syntax(referee_rules::quote::shorten(text, 40));
        let (first, last) = text.trim().split_once('-').ok_or_else(syntax)?;
        let number = |word: &str| word.trim().parse::<u32>().map_err(|_| syntax());
        let (first, last) = (number(first)?, number(last)?);
        if first > last {
            return Err(syntax());
        }
        for (id, what) in [
            (0, "root's"),
            (crate::sandbox::NOBODY, "nobody's"),
            (u32::MAX, "-1, 'no change' to the system"),
        ] {
            if (first..=last).contains(&id) {
                return Err(BoxIdsError::Reserved {
                    range: format!("{first}-{last}"),
                    id,
                    what,
                });
            }
        }
        Ok(BoxIds {
            first,
            count: last - first + 1,
        })
    }
}

/// The ids of boxes not live now (see the module's documentation).
#[derive(Debug)]
pub(crate) struct BoxPool {
    ids: BoxIds,
    free: Mutex<Free>,
}

#[derive(Debug, Default)]
struct Free {
    /// Ids from `first + never_used` on have never been given.
    never_used: u32,
    /// Ids given back, the longest ago first.
    returned: VecDeque<u32>,
}

/// A live box's id, given back to its pool when dropped: keep it until the box's process has
/// ended.
#[derive(Debug)]
pub(crate) struct BoxLease {
    id: u32,
    pool: &'static BoxPool,
}

impl BoxLease {
    /// The box's user and group id.
    pub(crate) fn id(&self) -> u32 {
        self.id
    }
}

impl Drop for BoxLease {
    fn drop(&mut self) {
        self.pool.free().returned.push_back(self.id);
    }
}

impl BoxPool {
    fn new(ids: BoxIds) -> BoxPool {
        BoxPool {
            ids,
            free: Mutex::new(Free::default()),
        }
    }

    fn free(&self) -> std::sync::MutexGuard<'_, Free> {
        self.free
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// An id no live box has, if any is left: one never given, else the one given back the
    /// longest ago.
    pub(crate) fn take(&'static self) -> Option<BoxLease> {
        let mut free = self.free();
        let id = if free.never_used < self.ids.count {
            free.never_used += 1;
            self.ids.first + free.never_used - 1
        } else {
            free.returned.pop_front()?
        };
        Some(BoxLease { id, pool: self })
    }

    /// The range this pool gives.
    pub(crate) fn ids(&self) -> BoxIds {
        self.ids
    }
}

static SHARED: OnceLock<BoxPool> = OnceLock::new();

/// Sets the range of box ids for this run (the default is [`BoxIds::default`]): once, before
/// the first box, so that one pool gives every box of the process its id.
pub fn use_box_ids(ids: BoxIds) -> Result<(), BoxIdsError> {
    let pool = SHARED.get_or_init(|| BoxPool::new(ids));
    if pool.ids() == ids {
        Ok(())
    } else {
        Err(BoxIdsError::AlreadySet(pool.ids()))
    }
}

/// The pool every box of this process takes its id from.
pub(crate) fn shared() -> &'static BoxPool {
    SHARED.get_or_init(|| BoxPool::new(BoxIds::default()))
}

/// Says once, on `out`, that boxes share the user running the referee (see the module's
/// documentation); `said` remembers that it was said.
fn warn_shared_user(said: &AtomicBool, out: &mut dyn Write) {
    if !said.swap(true, Ordering::Relaxed) {
        let _ = writeln!(
            out,
            "referee: warning: not run as root, the referee cannot give each sandboxed bot and build a user of its own: they all run as this user and share its processes limit (processes=N counts them all together, with the user's other processes); run as root for a user per box"
        );
    }
}

/// Says once per run, on stderr, that boxes share the user running the referee.
pub(crate) fn warn_once_shared_user() {
    static SAID: AtomicBool = AtomicBool::new(false);
    warn_shared_user(&SAID, &mut std::io::stderr());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_is_read_and_shown_as_isolate_writes_it() {
        let ids: BoxIds = "60000-60999".parse().unwrap();
        assert_eq!(ids, BoxIds::default());
        assert_eq!(ids.to_string(), "60000-60999");
        assert_eq!(
            " 70000 - 70000 ".parse::<BoxIds>(),
            Ok(BoxIds {
                first: 70_000,
                count: 1
            })
        );
        for bad in ["60000", "60999-60000", "a-b", "-5-3", ""] {
            assert!(
                matches!(bad.parse::<BoxIds>(), Err(BoxIdsError::Syntax(_))),
                "{bad}"
            );
        }
        for (bad, id) in [
            ("0-10", 0),
            ("65000-65535", 65534),
            ("4294967290-4294967295", u32::MAX),
        ] {
            match bad.parse::<BoxIds>() {
                Err(BoxIdsError::Reserved { id: said, .. }) => assert_eq!(said, id, "{bad}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
    }

    #[test]
    fn no_two_live_boxes_share_an_id_and_an_ended_box_is_given_last() {
        let pool: &'static BoxPool = Box::leak(Box::new(BoxPool::new(BoxIds {
            first: 100,
            count: 3,
        })));
        let a = pool.take().unwrap();
        let b = pool.take().unwrap();
        let c = pool.take().unwrap();
        assert_eq!([a.id(), b.id(), c.id()], [100, 101, 102]);
        assert!(pool.take().is_none(), "every id is live");
        drop(b);
        drop(a);
        let next = pool.take().unwrap();
        assert_eq!(next.id(), 101, "the id given back first is given first");
        let last = pool.take().unwrap();
        assert_eq!(last.id(), 100);
        assert!(pool.take().is_none());
        drop((c, next, last));
        // Threads taking at once get distinct ids.
        let pool: &'static BoxPool = Box::leak(Box::new(BoxPool::new(BoxIds {
            first: 1000,
            count: 64,
        })));
        let ids: Vec<u32> = std::thread::scope(|scope| {
            let takers: Vec<_> = (0..8)
                .map(|_| {
                    scope.spawn(|| {
                        (0..8)
                            .map(|_| std::mem::ManuallyDrop::new(pool.take().unwrap()).id())
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            takers.into_iter().flat_map(|t| t.join().unwrap()).collect()
        });
        let distinct: std::collections::BTreeSet<u32> = ids.iter().copied().collect();
        assert_eq!(distinct.len(), 64);
    }

    #[test]
    fn the_range_is_set_once_per_run() {
        // Other tests of this process may have made the pool already, with the default.
        assert_eq!(use_box_ids(BoxIds::default()), Ok(()));
        let other = BoxIds {
            first: 70_000,
            count: 10,
        };
        assert_eq!(
            use_box_ids(other),
            Err(BoxIdsError::AlreadySet(BoxIds::default()))
        );
        assert_eq!(shared().ids(), BoxIds::default());
    }

    #[test]
    fn the_shared_user_is_warned_of_once() {
        let said = AtomicBool::new(false);
        let mut out = Vec::new();
        for _ in 0..3 {
            warn_shared_user(&said, &mut out);
        }
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.contains("share its processes limit"), "{text}");
    }
}
