//! Web page loads between real hosts (`airq emulate`'s `http` test): a minimal HTTP/1.1
//! server (RFC 9112: a request line, headers ended by an empty line; a response with
//! `Content-Length`) and a client that loads a page as the simulator's model does
//! (airq-sim `bss/http.rs`): the document alone on one connection, then the other
//! objects over up to `connections` parallel connections, one request at a time on each
//! (no pipelining); new connections for every page unless kept alive; a think time
//! between pages. The page load time runs from the page's first connection (or
//! request, on kept-alive connections) to the last byte of its last object.
//!
//! Every request is exactly the page's `request_bytes` long (padded with a header) and
//! every response exactly its object's size (headers included), so the bytes on the
//! air are the model's. The request names the size it wants (`GET /<bytes>`); the
//! server keeps no page. Both ends run inside the emulated hosts' namespaces as
//! subprocesses of the `airq` binary (`airq emulate-http server|client`), std::net
//! only, each socket given the flow's DS field (`IP_TOS`) and congestion control
//! (`TCP_CONGESTION`, tcp(7)) before it connects.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A web page as the client loads it (airq-sim's `WebPage`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page {
    /// Object sizes in bytes, the document first.
    pub objects: Vec<u32>,
    /// Parallel connections for the objects after the document.
    pub connections: u8,
    /// Keep the connections open from one page to the next.
    pub keep_alive: bool,
    pub think_time: Duration,
    /// Bytes of one request.
    pub request_bytes: u32,
    /// Pages to load; `None`: until the deadline.
    pub pages: Option<u32>,
}

/// The socket options of every connection of a flow.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SocketOptions {
    /// The IPv4 DS field (DSCP and zero ECN bits), `IP_TOS`.
    pub tos: u8,
    /// The congestion control (`cubic`, `bbr`, ...); empty: the namespace's default.
    pub cc: String,
}

/// The request for an object of `object_bytes`, `request_bytes` long (longer if that
/// is too short for the request line and the headers it needs).
pub fn request(object_bytes: u32, request_bytes: u32) -> Vec<u8> {
    let head = format!("GET /{object_bytes} HTTP/1.1\r\nHost: airq\r\n");
    let minimal = head.len() + "X-Pad: \r\n\r\n".len();
    let pad = (request_bytes as usize).saturating_sub(minimal);
    let mut r = head.into_bytes();
    r.extend_from_slice(b"X-Pad: ");
    r.resize(r.len() + pad, b'x');
    r.extend_from_slice(b"\r\n\r\n");
    r
}

/// The response header for an object of `object_bytes` whose whole response
/// (header and body) is that long, and the body's length.
pub fn response_header(object_bytes: u32) -> (Vec<u8>, usize) {
    // The header's length depends on the body's number of digits: try from the
    // longest, so the total is exact whenever the object can hold a header at all.
    for digits in (1..=10).rev() {
        let fixed = "HTTP/1.1 200 OK\r\nContent-Length: \r\n\r\n".len() + digits;
        let body = (object_bytes as usize).saturating_sub(fixed);
        if body.to_string().len() == digits || body == 0 {
            let h = format!("HTTP/1.1 200 OK\r\nContent-Length: {body}\r\n\r\n");
            return (h.into_bytes(), body);
        }
    }
    // No length fits exactly (a body of 9 bytes takes 1 digit, one of 10 takes 2): one
    // byte more than asked.
    let body = (object_bytes as usize).saturating_sub(38);
    let h = format!("HTTP/1.1 200 OK\r\nContent-Length: {body}\r\n\r\n");
    (h.into_bytes(), body)
}

/// The object size a request asks for (`GET /<bytes> `), if it is one.
pub fn requested_bytes(head: &[u8]) -> Option<u32> {
    let line = head.split(|&b| b == b'\r').next()?;
    let line = std::str::from_utf8(line).ok()?;
    let path = line.strip_prefix("GET /")?.split(' ').next()?;
    path.parse().ok()
}

/// Reads one message head (up to the empty line) from `s` into `buf`; `Ok(false)` at
/// the end of the stream before any byte.
fn read_head(s: &mut TcpStream, buf: &mut Vec<u8>) -> io::Result<bool> {
    buf.clear();
    let mut byte = [0u8; 1];
    loop {
        if s.read(&mut byte)? == 0 {
            return if buf.is_empty() {
                Ok(false)
            } else {
                Err(io::ErrorKind::UnexpectedEof.into())
            };
        }
        buf.push(byte[0]);
        if buf.ends_with(b"\r\n\r\n") {
            return Ok(true);
        }
        if buf.len() > 64 * 1024 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "header too long",
            ));
        }
    }
}

fn set_option<T>(fd: RawFd, level: i32, name: i32, value: &T, len: usize) -> io::Result<()> {
    // SAFETY: `value` points to `len` readable bytes for the call.
    let r = unsafe {
        libc::setsockopt(
            fd,
            level,
            name,
            (value as *const T).cast(),
            len as libc::socklen_t,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Sets `IP_TOS` and `TCP_CONGESTION` on `fd`.
fn apply(fd: RawFd, o: &SocketOptions) -> io::Result<()> {
    let tos = libc::c_int::from(o.tos);
    set_option(fd, libc::IPPROTO_IP, libc::IP_TOS, &tos, 4)?;
    if !o.cc.is_empty() {
        let cc = o.cc.as_bytes();
        set_option(
            fd,
            libc::IPPROTO_TCP,
            libc::TCP_CONGESTION,
            &cc[0],
            cc.len(),
        )
        .map_err(|e| io::Error::new(e.kind(), format!("TCP_CONGESTION {}: {e}", o.cc)))?;
    }
    Ok(())
}

/// A connection to `server` whose options are set before its SYN.
pub fn connect(server: SocketAddr, o: &SocketOptions) -> io::Result<TcpStream> {
    let SocketAddr::V4(v4) = server else {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "IPv4 only"));
    };
    // SAFETY: plain socket(2); the result is checked.
    let raw = unsafe { libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0) };
    if raw < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a descriptor we just opened and own.
    let fd = unsafe { OwnedFd::from_raw_fd(raw) };
    apply(fd.as_raw_fd(), o)?;
    let addr = libc::sockaddr_in {
        sin_family: libc::AF_INET as libc::sa_family_t,
        sin_port: v4.port().to_be(),
        sin_addr: libc::in_addr {
            s_addr: u32::from_ne_bytes(v4.ip().octets()),
        },
        sin_zero: [0; 8],
    };
    // SAFETY: `addr` is a valid sockaddr_in for the call.
    let r = unsafe {
        libc::connect(
            fd.as_raw_fd(),
            (&addr as *const libc::sockaddr_in).cast(),
            std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t,
        )
    };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    let s = TcpStream::from(fd);
    s.set_nodelay(true)?;
    Ok(s)
}

/// Serves every connection to `bind` (a thread each) until the process is killed.
pub fn serve(bind: SocketAddr, o: &SocketOptions) -> io::Result<()> {
    let listener = TcpListener::bind(bind)?;
    apply(listener.as_raw_fd(), o)?;
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let o = o.clone();
        std::thread::spawn(move || {
            let _ = apply(stream.as_raw_fd(), &o);
            let _ = stream.set_nodelay(true);
            let _ = serve_connection(stream);
        });
    }
    Ok(())
}

/// Answers each request of one connection with its object, until the client closes.
fn serve_connection(mut s: TcpStream) -> io::Result<()> {
    let mut head = Vec::new();
    let zeros = vec![0u8; 64 * 1024];
    while read_head(&mut s, &mut head)? {
        let Some(bytes) = requested_bytes(&head) else {
            s.write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")?;
            return Ok(());
        };
        let (header, mut body) = response_header(bytes);
        s.write_all(&header)?;
        while body > 0 {
            let n = body.min(zeros.len());
            s.write_all(&zeros[..n])?;
            body -= n;
        }
    }
    Ok(())
}

/// Fetches one object of `object_bytes` on `s`: the request, then the whole response.
fn fetch(s: &mut TcpStream, object_bytes: u32, request_bytes: u32) -> io::Result<()> {
    s.write_all(&request(object_bytes, request_bytes))?;
    let mut head = Vec::new();
    if !read_head(s, &mut head)? {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    let text = String::from_utf8_lossy(&head);
    let length: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("Content-Length: "))
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "no Content-Length"))?;
    let mut left = length;
    let mut buf = vec![0u8; 64 * 1024];
    while left > 0 {
        let n = s.read(&mut buf[..left.min(64 * 1024)])?;
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        left -= n;
    }
    Ok(())
}

/// One page load finished: when it started and how long it took, from the client's
/// start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageLoad {
    pub started: Duration,
    pub load_time: Duration,
}

/// Loads `page` from `server` again and again until `deadline` (or its page count);
/// `on_load` gets each page loaded in full before it. A page still loading at the
/// deadline is abandoned, as the simulator's run ends with it.
pub fn load_pages(
    server: SocketAddr,
    page: &Page,
    o: &SocketOptions,
    deadline: Instant,
    mut on_load: impl FnMut(PageLoad),
) -> io::Result<()> {
    let origin = Instant::now();
    let mut kept: Vec<TcpStream> = Vec::new();
    let mut loaded = 0u32;
    while Instant::now() < deadline && page.pages.is_none_or(|n| loaded < n) {
        let start = Instant::now();
        if !page.keep_alive {
            kept.clear();
        }
        match load_page(server, page, o, deadline, &mut kept) {
            Ok(()) => {
                loaded += 1;
                on_load(PageLoad {
                    started: start - origin,
                    load_time: start.elapsed(),
                });
            }
            // The deadline (a read timed out) or the server gone: stop here.
            Err(_) => break,
        }
        if !page.keep_alive {
            kept.clear();
        }
        let next = Instant::now() + page.think_time;
        std::thread::sleep(next.min(deadline).saturating_duration_since(Instant::now()));
    }
    Ok(())
}

/// Sets `s`'s timeouts to what is left until `deadline` (an error once it has passed).
fn until(s: &TcpStream, deadline: Instant) -> io::Result<()> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(io::ErrorKind::TimedOut.into());
    }
    s.set_read_timeout(Some(left))?;
    s.set_write_timeout(Some(left))
}

/// One page: the document on the first connection, then the rest over up to
/// `connections` connections (the first one among them), each taking the next object
/// when its last is in. `kept` holds the connections kept alive and gets this page's.
fn load_page(
    server: SocketAddr,
    page: &Page,
    o: &SocketOptions,
    deadline: Instant,
    kept: &mut Vec<TcpStream>,
) -> io::Result<()> {
    let Some(&document) = page.objects.first() else {
        return Ok(());
    };
    if kept.is_empty() {
        kept.push(connect(server, o)?);
    }
    until(&kept[0], deadline)?;
    fetch(&mut kept[0], document, page.request_bytes)?;
    let rest = page.objects.len() - 1;
    let wanted = rest.min(usize::from(page.connections.max(1)));
    let next = Arc::new(Mutex::new(1usize));
    let mut streams: Vec<Option<TcpStream>> = std::mem::take(kept).into_iter().map(Some).collect();
    streams.resize_with(wanted.max(streams.len()), || None);
    let results: Vec<io::Result<Option<TcpStream>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = streams
            .into_iter()
            .enumerate()
            .map(|(slot, stream)| {
                let next = Arc::clone(&next);
                scope.spawn(move || -> io::Result<Option<TcpStream>> {
                    let take = || {
                        let mut n = next.lock().expect("no thread panics holding it");
                        let k = *n;
                        *n += 1;
                        page.objects.get(k).copied()
                    };
                    // A kept connection beyond this page's needs stays idle.
                    if slot >= wanted {
                        return Ok(stream);
                    }
                    let mut s = match stream {
                        Some(s) => s,
                        None => connect(server, o)?,
                    };
                    while let Some(bytes) = take() {
                        until(&s, deadline)?;
                        fetch(&mut s, bytes, page.request_bytes)?;
                    }
                    Ok(Some(s))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(io::Error::other("panicked")))
            })
            .collect()
    });
    for r in results {
        if let Some(s) = r? {
            kept.push(s);
        }
    }
    Ok(())
}

/// `airq emulate-http ARGS`: `server ADDRESS:PORT TOS CC` serves until killed;
/// `client ADDRESS:PORT TOS CC SECONDS OBJECTS CONNECTIONS KEEP_ALIVE THINK_MS
/// REQUEST_BYTES PAGES` loads pages for SECONDS and prints a line
/// `page STARTED_NS LOAD_NS` per page loaded (OBJECTS comma-separated, KEEP_ALIVE 0 or
/// 1, PAGES 0 for no limit). Made by [`server_args`] and [`client_args`].
pub fn main(args: &[String]) -> Result<(), String> {
    let bad = || format!("emulate-http: bad arguments {args:?}");
    let get = |k: usize| args.get(k).ok_or_else(bad);
    let role = get(0)?.as_str();
    let server: SocketAddr = get(1)?.parse().map_err(|_| bad())?;
    let o = SocketOptions {
        tos: get(2)?.parse().map_err(|_| bad())?,
        cc: get(3)?.clone(),
    };
    match role {
        "server" => serve(server, &o).map_err(|e| format!("emulate-http server: {e}")),
        "client" => {
            let num = |k: usize| -> Result<u64, String> { get(k)?.parse().map_err(|_| bad()) };
            let seconds = num(4)?;
            let objects = get(5)?
                .split(',')
                .map(|n| n.parse().map_err(|_| bad()))
                .collect::<Result<Vec<u32>, String>>()?;
            let page = Page {
                objects,
                connections: num(6)?.min(255) as u8,
                keep_alive: num(7)? != 0,
                think_time: Duration::from_millis(num(8)?),
                request_bytes: num(9)? as u32,
                pages: Some(num(10)? as u32).filter(|&n| n > 0),
            };
            let deadline = Instant::now() + Duration::from_secs(seconds);
            let stdout = io::stdout();
            load_pages(server, &page, &o, deadline, |l| {
                let mut out = stdout.lock();
                let _ = writeln!(
                    out,
                    "page {} {}",
                    l.started.as_nanos(),
                    l.load_time.as_nanos()
                );
                let _ = out.flush();
            })
            .map_err(|e| format!("emulate-http client: {e}"))
        }
        _ => Err(bad()),
    }
}

/// The arguments of `airq emulate-http` for a server on `server`.
pub fn server_args(server: SocketAddr, o: &SocketOptions) -> Vec<String> {
    vec![
        "server".into(),
        server.to_string(),
        o.tos.to_string(),
        o.cc.clone(),
    ]
}

/// The arguments of `airq emulate-http` for a client of `server` loading `page` for
/// `seconds`.
pub fn client_args(
    server: SocketAddr,
    o: &SocketOptions,
    page: &Page,
    seconds: u64,
) -> Vec<String> {
    let objects: Vec<String> = page.objects.iter().map(u32::to_string).collect();
    vec![
        "client".into(),
        server.to_string(),
        o.tos.to_string(),
        o.cc.clone(),
        seconds.to_string(),
        objects.join(","),
        page.connections.to_string(),
        u8::from(page.keep_alive).to_string(),
        page.think_time.as_millis().to_string(),
        page.request_bytes.to_string(),
        page.pages.unwrap_or(0).to_string(),
    ]
}

/// The page loads of the client's output: (started, load time) per `page` line.
pub fn parse_loads(text: &str) -> Vec<PageLoad> {
    text.lines()
        .filter_map(|l| {
            let mut w = l.strip_prefix("page ")?.split_whitespace();
            let started = w.next()?.parse().ok()?;
            let load = w.next()?.parse().ok()?;
            Some(PageLoad {
                started: Duration::from_nanos(started),
                load_time: Duration::from_nanos(load),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_responses_are_exactly_the_models_sizes() {
        let r = request(48_000, 400);
        assert_eq!(r.len(), 400);
        assert_eq!(requested_bytes(&r), Some(48_000));
        assert!(r.ends_with(b"\r\n\r\n"));
        // Too short for its headers: as short as it can be.
        assert!(request(1, 10).len() > 10);
        for bytes in [14_400u32, 4_000, 100, 1_000_000, 60] {
            let (h, body) = response_header(bytes);
            assert_eq!(h.len() + body, bytes as usize, "{bytes}");
            assert!(String::from_utf8(h)
                .unwrap()
                .contains(&format!(": {body}\r\n")));
        }
        // Smaller than a header: the header alone; where no length fits, a byte more.
        assert_eq!(response_header(10).1, 0);
        let (h, body) = response_header(48);
        assert_eq!(h.len() + body, 49);
    }

    #[test]
    fn arguments_round_trip_and_output_parses() {
        let page = Page {
            objects: vec![14_400, 4_000],
            connections: 6,
            keep_alive: true,
            think_time: Duration::from_millis(1000),
            request_bytes: 400,
            pages: None,
        };
        let o = SocketOptions {
            tos: 0xb8,
            cc: "cubic".into(),
        };
        let args = client_args("10.0.0.1:5201".parse().unwrap(), &o, &page, 7);
        assert_eq!(args[0], "client");
        assert_eq!(args[5], "14400,4000");
        assert_eq!(
            parse_loads("page 5 1000000\njunk\npage 2000000000 7\n"),
            vec![
                PageLoad {
                    started: Duration::from_nanos(5),
                    load_time: Duration::from_millis(1)
                },
                PageLoad {
                    started: Duration::from_secs(2),
                    load_time: Duration::from_nanos(7)
                }
            ]
        );
    }

    /// A page over loopback: every object fetched, one load per page, the pages limit
    /// kept, on new connections and on kept-alive ones.
    #[test]
    fn a_page_loads_over_loopback() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        drop(listener);
        let o = SocketOptions::default();
        let server = o.clone();
        std::thread::spawn(move || serve(addr, &server));
        std::thread::sleep(Duration::from_millis(100));
        for keep_alive in [false, true] {
            let page = Page {
                objects: vec![14_400, 48_000, 32_000, 4_000, 8_000],
                connections: 2,
                keep_alive,
                think_time: Duration::from_millis(10),
                request_bytes: 400,
                pages: Some(3),
            };
            let mut loads = Vec::new();
            let deadline = Instant::now() + Duration::from_secs(10);
            load_pages(addr, &page, &o, deadline, |l| loads.push(l)).unwrap();
            assert_eq!(loads.len(), 3, "keep_alive {keep_alive}");
            assert!(loads.windows(2).all(|w| w[0].started < w[1].started));
        }
    }
}
