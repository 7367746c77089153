//! What the readers and writers of a bot's pipes share.

use nix::fcntl::{fcntl, FcntlArg, OFlag};
use std::io;
use std::os::fd::{AsRawFd, BorrowedFd};

nix::ioctl_read_bad!(fionread, libc::FIONREAD, libc::c_int);

/// The bytes written into a pipe and not yet read out of it, asked through either end (0 when
/// the pipe cannot be asked): whether a bot has read its request yet.
pub(super) fn unread_bytes(pipe: BorrowedFd<'_>) -> usize {
    let mut count: libc::c_int = 0;
    // SAFETY: FIONREAD writes one c_int through the pointer, which points to `count`, alive
    // for the call; the descriptor is borrowed, so open.
    match unsafe { fionread(pipe.as_raw_fd(), &mut count) } {
        Ok(_) => usize::try_from(count).unwrap_or(0),
        Err(_) => 0,
    }
}

/// Makes reads and writes on `pipe` return at once instead of waiting.
pub(super) fn set_nonblocking(pipe: &impl AsRawFd) -> io::Result<()> {
    let flags = fcntl(pipe.as_raw_fd(), FcntlArg::F_GETFL)?;
    fcntl(
        pipe.as_raw_fd(),
        FcntlArg::F_SETFL(OFlag::from_bits_truncate(flags) | OFlag::O_NONBLOCK),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::os::fd::AsFd;

    #[test]
    fn unread_bytes_are_seen_from_the_writing_end() {
        let (mut reader, mut writer) = std::io::pipe().unwrap();
        assert_eq!(unread_bytes(writer.as_fd()), 0);
        writer.write_all(b"turn 100\n").unwrap();
        assert_eq!(unread_bytes(writer.as_fd()), 9);
        let mut four = [0; 4];
        reader.read_exact(&mut four).unwrap();
        assert_eq!(unread_bytes(writer.as_fd()), 5);
    }
}
