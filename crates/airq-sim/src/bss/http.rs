//! Web page loads over TCP, as a browser fetches a page over HTTP/1.1 without
//! pipelining: the page's first object (the document) alone on one connection, then the
//! rest over up to `connections` parallel connections (browsers open six per host), one
//! request at a time on each. The page load time runs from the first request's
//! connection (or request, on kept-alive connections) to the last object's last byte.
//! After a think time the next page starts.

use super::hosts::{Cx, Hosts};
use super::tcp_flows::Side;
use super::Event;
use crate::apps::traffic::{App, WebPage};
use crate::transport::tcp::{Outgoing, TcpState};
use airq::Instant;

/// The web client of one flow.
#[derive(Default)]
pub(super) struct HttpState {
    /// The page it loads again and again.
    page: WebPage,
    page_start: Instant,
    /// Next object of the page to request.
    next_object: usize,
    /// Objects of the page received in full.
    done: usize,
    /// The connections of the current page (all of them, kept alive or not).
    slots: Vec<Slot>,
}

/// One connection of the client.
struct Slot {
    conn: u32,
    /// The object requested and not yet received in full.
    busy: Option<usize>,
    /// Cumulative response bytes the client expects by the end of `busy`.
    expect: u64,
    /// Requests written / responses written so far (equal at the server once answered).
    requests: u64,
    responses: u64,
}

impl HttpState {
    /// The client of a flow running `app` (idle unless it is a web client).
    pub(super) fn new(app: &App) -> HttpState {
        match app {
            App::Http { page, .. } => HttpState {
                page: page.clone(),
                ..HttpState::default()
            },
            _ => HttpState::default(),
        }
    }
}

impl Hosts {
    /// Starts the next page load of `flow`: the document on the first connection.
    pub(super) fn http_start_page(&mut self, flow: u32, cx: &mut Cx) {
        let f = &mut self.flows[flow as usize];
        if !f.spec.active_at(cx.now) {
            return;
        }
        let http = &mut f.http;
        let keep_alive = http.page.keep_alive;
        http.page_start = cx.now;
        http.next_object = 0;
        http.done = 0;
        if !keep_alive {
            http.slots.clear();
        }
        if self.flows[flow as usize].http.slots.is_empty() {
            self.http_add_slot(flow, cx);
        } else {
            let conn = self.flows[flow as usize].http.slots[0].conn;
            let mut out = std::mem::take(&mut self.tcp_out);
            self.http_request(flow, 0, &mut out, cx);
            self.tcp_emit(flow, conn, Side::Station, &mut out, cx);
            self.tcp_out = out;
        }
    }

    fn http_add_slot(&mut self, flow: u32, cx: &mut Cx) {
        let conn = self.tcp_open(flow, cx);
        self.flows[flow as usize].http.slots.push(Slot {
            conn,
            busy: None,
            expect: 0,
            requests: 0,
            responses: 0,
        });
    }

    /// Writes the next request on slot `slot` if it is idle, established and the page
    /// has an object for it (the document goes alone).
    fn http_request(&mut self, flow: u32, slot: usize, out: &mut Vec<Outgoing>, cx: &mut Cx) {
        let now = cx.now;
        let f = &mut self.flows[flow as usize];
        let http = &mut f.http;
        let page = &http.page;
        let s = &mut http.slots[slot];
        let document_pending = http.next_object > 0 && http.done == 0;
        if s.busy.is_some() || http.next_object >= page.objects.len() || document_pending {
            return;
        }
        let client = &mut f.conns[s.conn as usize].ends[Side::Station as usize];
        if client.state() != TcpState::Established {
            return;
        }
        s.busy = Some(http.next_object);
        s.expect += u64::from(page.objects[http.next_object]);
        s.requests += 1;
        http.next_object += 1;
        client.write(u64::from(page.request_bytes), now, out);
    }

    /// The application's reaction after `side` of connection `conn` has acted.
    pub(super) fn http_progress(
        &mut self,
        flow: u32,
        conn: u32,
        side: Side,
        out: &mut Vec<Outgoing>,
        cx: &mut Cx,
    ) {
        let now = cx.now;
        let f = &mut self.flows[flow as usize];
        let Some(slot) = f.http.slots.iter().position(|s| s.conn == conn) else {
            // A connection of an earlier page, closing.
            let end = &mut f.conns[conn as usize].ends[side as usize];
            if side == Side::Server && end.state() == TcpState::CloseWait {
                end.close(now, out);
            }
            return;
        };
        let c = &mut f.conns[conn as usize];
        let page = &f.http.page;
        let s = &mut f.http.slots[slot];
        match side {
            Side::Server => {
                // Answer every complete request with its object.
                let received = c.delivered_bytes(Side::Server);
                while s.responses < s.requests
                    && received >= (s.responses + 1) * u64::from(page.request_bytes)
                {
                    s.responses += 1;
                    let object = s.busy.expect("a request is outstanding");
                    c.ends[Side::Server as usize].write(u64::from(page.objects[object]), now, out);
                }
            }
            Side::Station => {
                if s.busy.is_some() && c.delivered_bytes(Side::Station) >= s.expect {
                    s.busy = None;
                    f.http.done += 1;
                    let objects = page.objects.len();
                    let connections = usize::from(page.connections);
                    if f.http.done == objects {
                        self.http_page_done(flow, conn, out, cx);
                        return;
                    }
                    if f.http.done == 1 {
                        // The document is in: put kept-alive connections to work and
                        // open the rest (they request once established).
                        let wanted = (objects - 1).min(connections);
                        let kept = self.flows[flow as usize].http.slots.len();
                        for other in (0..kept).filter(|&k| k != slot) {
                            let conn = self.flows[flow as usize].http.slots[other].conn;
                            let mut own = Vec::new();
                            self.http_request(flow, other, &mut own, cx);
                            self.tcp_emit(flow, conn, Side::Station, &mut own, cx);
                        }
                        while self.flows[flow as usize].http.slots.len() < wanted {
                            self.http_add_slot(flow, cx);
                        }
                    }
                }
                self.http_request(flow, slot, out, cx);
            }
        }
    }

    /// The page's last object is in, on connection `conn`, whose segments not yet
    /// sent are in `out`: without keep-alive every connection closes. `conn`'s FIN
    /// goes after what `out` holds (an ACK of the object's last bytes), as a stack
    /// that acknowledged data before its application read it and closed would send
    /// them; the others' go out at once.
    fn http_page_done(&mut self, flow: u32, conn: u32, out: &mut Vec<Outgoing>, cx: &mut Cx) {
        let now = cx.now;
        let http = &self.flows[flow as usize].http;
        let (keep_alive, think_time) = (http.page.keep_alive, http.page.think_time);
        let limit = http.page.pages;
        let load_time = now - http.page_start;
        let loads = &mut cx.metrics.flows[flow as usize].page_loads;
        loads.push(load_time);
        let more = limit.is_none_or(|n| (loads.len() as u64) < u64::from(n));
        if !keep_alive {
            let slots = std::mem::take(&mut self.flows[flow as usize].http.slots);
            for s in slots {
                let c = &mut self.flows[flow as usize].conns[s.conn as usize];
                let end = &mut c.ends[Side::Station as usize];
                if s.conn == conn {
                    end.close(now, out);
                } else {
                    let mut own = Vec::new();
                    end.close(now, &mut own);
                    self.tcp_emit(flow, s.conn, Side::Station, &mut own, cx);
                }
            }
        }
        if more {
            cx.events.schedule(now + think_time, Event::Periodic(flow));
        }
    }
}
