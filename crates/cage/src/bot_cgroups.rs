//! The cgroups of one bot: a group per hierarchy with a controller its limits need, each
//! holding the limits the controllers' modules write.

use super::cgroup::{delegate, home, CgroupError, Group, Joiner, MakeDir};
use super::{memory_cgroup, pids_cgroup};
use std::fs;

/// The groups of one bot: one per hierarchy, holding the limits its controllers were asked
/// for. Dropping it kills whatever the groups still hold and removes them.
#[derive(Debug, Default)]
pub(crate) struct BotCgroups {
    groups: Vec<Group>,
    pids: Option<usize>,
    memory: Option<usize>,
}

impl BotCgroups {
    /// Groups limiting the bot's processes and threads to `processes` and its memory to
    /// `memory` bytes, for those limits given; `make` makes each directory (the supervisor
    /// notes it first, so that a run killed meanwhile leaves no group unknown). A controller
    /// that cannot be had here is left out (see [`available`]).
    pub(crate) fn create(processes: Option<u64>, memory: Option<u64>, make: MakeDir) -> BotCgroups {
        let mut cgroups = BotCgroups::default();
        if let Some(max) = processes {
            cgroups.pids = cgroups
                .add(pids_cgroup::CONTROLLER, make, |group| {
                    pids_cgroup::set_limit(group, max)
                })
                .ok();
        }
        if let Some(bytes) = memory {
            cgroups.memory = cgroups
                .add(memory_cgroup::CONTROLLER, make, |group| {
                    memory_cgroup::set_limit(group, bytes)
                })
                .ok();
        }
        cgroups
    }

    /// Adds `controller` with its limit set by `limit`, in the group already made in its
    /// hierarchy (v2) or in a new one; returns the group's index.
    fn add(
        &mut self,
        controller: &'static str,
        make: MakeDir,
        limit: impl FnOnce(&Group) -> Result<(), CgroupError>,
    ) -> Result<usize, CgroupError> {
        let home = home(controller).ok_or(CgroupError::NoController(controller))?;
        let existing = self
            .groups
            .iter()
            .position(|group| group.dir.parent() == Some(home.dir.as_path()));
        let at = match existing {
            Some(at) => {
                delegate(&home, controller, make)?;
                at
            }
            None => {
                self.groups.push(Group::create(&home, controller, make)?);
                self.groups.len() - 1
            }
        };
        let result = limit(&self.groups[at]);
        if result.is_err() && existing.is_none() {
            self.groups.pop();
        }
        result.map(|()| at)
    }

    /// The group limiting the bot's processes, if any.
    pub(crate) fn pids(&self) -> Option<&Group> {
        self.pids.map(|at| &self.groups[at])
    }

    /// The group limiting the bot's memory, if any.
    pub(crate) fn memory(&self) -> Option<&Group> {
        self.memory.map(|at| &self.groups[at])
    }

    /// What a child needs to join every group between fork and exec.
    pub(crate) fn joiners(&self) -> Vec<Joiner> {
        self.groups.iter().map(Group::joiner).collect()
    }

    /// Kills every process of the bot the groups hold.
    pub(crate) fn kill_all(&self) {
        for group in &self.groups {
            group.kill_all();
        }
    }
}

/// Whether a group with `controller` and the limit `limit` sets can be made here; the error says
/// why not.
pub(crate) fn available(
    controller: &'static str,
    limit: impl FnOnce(&Group) -> Result<(), CgroupError>,
) -> Result<(), CgroupError> {
    BotCgroups::default()
        .add(controller, &|dir| fs::create_dir(dir), limit)
        .map(drop)
}

/// Whether a pids cgroup can be made here; the error says why not.
pub(crate) fn pids_available() -> Result<(), CgroupError> {
    available(pids_cgroup::CONTROLLER, |group| {
        pids_cgroup::set_limit(group, 1)
    })
}
