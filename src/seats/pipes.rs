//! What the readers and writers of a bot's pipes share.

use nix::fcntl::{fcntl, FcntlArg, OFlag};
use std::io;
use std::os::fd::AsRawFd;

/// Makes reads and writes on `pipe` return at once instead of waiting.
pub(super) fn set_nonblocking(pipe: &impl AsRawFd) -> io::Result<()> {
    let flags = fcntl(pipe.as_raw_fd(), FcntlArg::F_GETFL)?;
    fcntl(
        pipe.as_raw_fd(),
        FcntlArg::F_SETFL(OFlag::from_bits_truncate(flags) | OFlag::O_NONBLOCK),
    )?;
    Ok(())
}
