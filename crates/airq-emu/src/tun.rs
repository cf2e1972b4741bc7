//! A TUN device (Linux `Documentation/networking/tuntap.rst`): an IP interface whose
//! packets this process reads and writes through a file descriptor. TUN rather than TAP
//! because the emulated hosts talk IP: there is no Ethernet header to make up and no
//! ARP to answer (each host's interface is a point-to-point link into the BSS), and a
//! TUN device without `IFF_VNET_HDR` offers no offloads, so every packet the kernel
//! hands us is one IP packet of at most the MTU — what the model queues.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

/// `TUNSETIFF` (include/uapi/linux/if_tun.h: `_IOW('T', 202, int)`).
const TUNSETIFF: libc::c_ulong = 0x4004_54ca;
/// `IFF_TUN` and `IFF_NO_PI` (include/uapi/linux/if_tun.h): IP packets, no 4-byte
/// packet-information prefix.
const IFF_TUN: libc::c_short = 0x0001;
const IFF_NO_PI: libc::c_short = 0x1000;

/// The largest packet read: the interface MTU is 1500; 64 KiB leaves room for anything
/// the kernel could hand over.
pub const READ_BUFFER_BYTES: usize = 65_536;

/// `struct ifreq` as TUNSETIFF reads it: the name, then the flags (a union of 24 bytes).
#[repr(C)]
struct IfReq {
    name: [libc::c_char; libc::IFNAMSIZ],
    flags: libc::c_short,
    _pad: [u8; 22],
}

/// An open TUN device, non-blocking. Closing it (drop) removes the interface.
#[derive(Debug)]
pub struct Tun {
    fd: OwnedFd,
    name: String,
}

impl Tun {
    /// Creates the TUN interface `name` (at most 15 bytes) in the calling thread's
    /// network namespace (the one /dev/net/tun is opened in: `tun_chr_open` in
    /// drivers/net/tun.c).
    pub fn create(name: &str) -> io::Result<Tun> {
        if name.is_empty() || name.len() >= libc::IFNAMSIZ {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("interface name `{name}` must be 1 to 15 bytes"),
            ));
        }
        // SAFETY: a plain open(2) of a path literal; the result is checked.
        let raw = unsafe {
            libc::open(
                c"/dev/net/tun".as_ptr(),
                libc::O_RDWR | libc::O_NONBLOCK | libc::O_CLOEXEC,
            )
        };
        if raw < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `raw` is a descriptor we just opened and own.
        let fd = unsafe { OwnedFd::from_raw_fd(raw) };
        let mut req = IfReq {
            name: [0; libc::IFNAMSIZ],
            flags: IFF_TUN | IFF_NO_PI,
            _pad: [0; 22],
        };
        for (d, s) in req.name.iter_mut().zip(name.bytes()) {
            *d = s as libc::c_char;
        }
        // SAFETY: TUNSETIFF reads a `struct ifreq`, which `IfReq` lays out, and the
        // pointer is valid for the call.
        let r = unsafe { libc::ioctl(fd.as_raw_fd(), TUNSETIFF, &mut req as *mut IfReq) };
        if r < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Tun {
            fd,
            name: name.to_string(),
        })
    }

    /// Another descriptor of the same device (`dup(2)`).
    pub fn try_clone(&self) -> io::Result<Tun> {
        Ok(Tun {
            fd: self.fd.try_clone()?,
            name: self.name.clone(),
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn raw_fd(&self) -> RawFd {
        self.fd.as_raw_fd()
    }

    /// Reads one packet into `buf`; `Ok(None)` when none is waiting.
    pub fn read(&self, buf: &mut [u8]) -> io::Result<Option<usize>> {
        // SAFETY: `buf` is valid for writes of its length.
        let n = unsafe { libc::read(self.raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
        if n < 0 {
            let e = io::Error::last_os_error();
            return match e.kind() {
                io::ErrorKind::WouldBlock => Ok(None),
                _ => Err(e),
            };
        }
        Ok(Some(n as usize))
    }

    /// Writes one packet: the host's stack receives it.
    pub fn write(&self, packet: &[u8]) -> io::Result<()> {
        // SAFETY: `packet` is valid for reads of its length.
        let n = unsafe { libc::write(self.raw_fd(), packet.as_ptr().cast(), packet.len()) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
}
