//! The benchmark families of thesis Sec. 6.4, re-written in Cove's PRISM subset.
//!
//! The original models (from Feng–Kwiatkowska–Parker) are not available; these are written
//! from the descriptions, parameterized by `n`, each with a specification that holds and a
//! buggy variant that must be refuted. Every family has two components: `l1` (the
//! component kept concrete by AGAR) and `l2` (the one replaced by a learned or refined
//! assumption); each component file may contain several modules, which AGAR-N treats as
//! separate components. All probabilities are exact rationals.
//!
//! * **CS1(n) / CSN(n)** — client–server mutual exclusion. `l1` is the server (who holds
//!   the resource), `l2` the `n` clients (idle, waiting, critical, crashed). A failing
//!   client crashes with probability 1/10 when it releases the resource and must recover.
//!   In CS1 only client 1 can fail, in CSN all can. Spec: mutual exclusion plus the crash
//!   behaviour (a crashed client is not granted until it recovers); requests are "hidden"
//!   (self-loops). Bug: the server grants client n without checking that the resource is
//!   free.
//! * **MER(n)** — the Mars Exploration Rover resource arbiter: two resources A and B, `n`
//!   users (`l2`, 12 states each: |L2| = 12^n as in the thesis), who crash with
//!   probability 1/10 on release. `l1` is the arbiter: it answers a request by a grant
//!   (19/20) or a spurious denial (1/20), has a health state (a local monitor step degrades
//!   it with probability 1/100; degraded, it denies everything until it reboots) and a
//!   watchdog that reboots it after three denials in a row. Spec: resource A's life cycle
//!   with the 19/20 / 1/20 answer (3n+1 states; B and the rest hidden). Bug: the arbiter
//!   denies user n's requests for A spuriously with probability 1/10 (only the numbers
//!   differ).
//! * **SN(n)** — a wireless sensor network: `l1` is a processor and `n` sensors (sleep,
//!   sense with an event 1/5 or a fault 1/20, send with up to two retries), `l2` a radio
//!   channel with a 3-message buffer and a Gilbert–Elliott link (30 states for every `n`;
//!   thesis 32). Spec (the thesis's was "obtained by observing the system's runs"): each
//!   sensor's cycle and the channel's loss probabilities per link state, one transmission
//!   at a time (2·(3^n + 2n·3^(n−1)) states: 10/42/162; thesis 18/54/162). Bug: a bad link
//!   loses messages with the wrong probability (only the numbers differ).
//!
//! The thesis's sizes (Table 6.2) and Cove's are compared in the crate's `BENCHMARKS.md`.

use std::fmt::Write as _;

/// One benchmark instance as PRISM sources.
#[derive(Clone, Debug)]
pub struct Instance {
    /// Name, e.g. `CS1(3)`.
    pub name: String,
    /// The concrete component (PRISM source).
    pub l1: String,
    /// The component to be abstracted (PRISM source).
    pub l2: String,
    /// The specification (PRISM source, built into an LPTS).
    pub spec: String,
    /// Whether the specification is expected to hold.
    pub expect_holds: bool,
}

/// The families.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Client–server, one failing client.
    Cs1,
    /// Client–server, all clients failing.
    Csn,
    /// Mars rover resource arbiter.
    Mer,
    /// Sensor network.
    Sn,
}

impl Family {
    /// All families.
    pub const ALL: [Family; 4] = [Family::Cs1, Family::Csn, Family::Mer, Family::Sn];

    /// The short name used in tables.
    pub fn name(self) -> &'static str {
        match self {
            Family::Cs1 => "CS1",
            Family::Csn => "CSN",
            Family::Mer => "MER",
            Family::Sn => "SN",
        }
    }

    /// The instance with parameter `n` (`n ≥ 1`), correct or buggy.
    pub fn instance(self, n: usize, buggy: bool) -> Instance {
        let (l1, l2, spec) = match self {
            Family::Cs1 => client_server(n, 1, buggy),
            Family::Csn => {
                let (server, clients, spec) = client_server(n, n, buggy);
                (clients, server, spec)
            }
            Family::Mer => mer(n, buggy),
            Family::Sn => sensor_network(n, buggy),
        };
        let name = format!("{}({n}){}", self.name(), if buggy { "-bug" } else { "" });
        Instance {
            name,
            l1,
            l2,
            spec,
            expect_holds: !buggy,
        }
    }
}

fn client_server(n: usize, failing: usize, buggy: bool) -> (String, String, String) {
    // The server records the holder `s` and the last requester `r`: (n+1)² states, the
    // thesis's |L1| for CS1 (|L2| for CSN).
    let mut server =
        format!("mdp\nmodule server\n  s : [0..{n}] init 0;\n  r : [0..{n}] init 0;\n");
    for i in 1..=n {
        let guard = if buggy && i == n {
            "true".to_string()
        } else {
            "s=0".to_string()
        };
        let _ = writeln!(
            server,
            "  [req{i}] true -> (r'={i});\n  [grant{i}] {guard} -> (s'={i});\n  [rel{i}] s={i} -> (s'=0);"
        );
    }
    server.push_str("endmodule\n");
    let mut clients = String::from("mdp\nconst double p = 1/10;\n");
    clients.push_str(
        "module client1\n  c1 : [0..4] init 0;\n  [req1] c1=0 -> (c1'=1);\n  [grant1] c1=1 -> (c1'=2);\n  \
         [rel1] c1=2 -> 1-p : (c1'=0) + p : (c1'=3);\n  [recover1] c1=3 -> (c1'=4);\n  \
         [restart1] c1=4 -> (c1'=0);\nendmodule\n",
    );
    let mut safe_template: Option<usize> = None;
    for i in 2..=n {
        if i <= failing {
            let _ = writeln!(
                clients,
                "module client{i} = client1 [c1=c{i}, req1=req{i}, grant1=grant{i}, rel1=rel{i}, recover1=recover{i}, restart1=restart{i}] endmodule"
            );
        } else if let Some(t) = safe_template {
            let _ = writeln!(
                clients,
                "module client{i} = client{t} [c{t}=c{i}, req{t}=req{i}, grant{t}=grant{i}, rel{t}=rel{i}] endmodule"
            );
        } else {
            let _ = write!(
                clients,
                "module client{i}\n  c{i} : [0..2] init 0;\n  [req{i}] c{i}=0 -> (c{i}'=1);\n  \
                 [grant{i}] c{i}=1 -> (c{i}'=2);\n  [rel{i}] c{i}=2 -> (c{i}'=0);\nendmodule\n"
            );
            safe_template = Some(i);
        }
    }
    let mut spec = format!("mdp\nconst double p = 1/10;\nmodule spec\n  h : [0..{n}] init 0;\n");
    for i in 1..=failing {
        let _ = writeln!(spec, "  f{i} : bool init false;");
    }
    for i in 1..=n {
        let _ = writeln!(spec, "  [req{i}] true -> true;");
        if i <= failing {
            let _ = writeln!(
                spec,
                "  [grant{i}] h=0 & !f{i} -> (h'={i});\n  [rel{i}] h={i} -> 1-p : (h'=0) + p : (h'=0) & (f{i}'=true);\n  \
                 [recover{i}] f{i} -> true;\n  [restart{i}] f{i} -> (f{i}'=false);"
            );
        } else {
            let _ = writeln!(
                spec,
                "  [grant{i}] h=0 -> (h'={i});\n  [rel{i}] h={i} -> (h'=0);"
            );
        }
    }
    spec.push_str("endmodule\n");
    (server, clients, spec)
}

fn mer(n: usize, buggy: bool) -> (String, String, String) {
    // The arbiter: holders `a`, `b` of the two resources, one pending decision (`d` grant
    // or deny, for requester `w` and resource `r`), its health `h` (0 ok; a local
    // `monitor` step fails it with probability 1/100; 1 degraded; 2 rebooting) and a
    // watchdog `c` counting consecutive denials (a third denial in a row reboots it).
    // Degraded or rebooting, it denies every request. With the watchdog and health the
    // arbiter has 522/849/~1.3k states for n = 3/4/5 (thesis 278/465/700) and the
    // composition 12.7k/110k/~1M (thesis 16k/120k/841k).
    let mut arb = format!(
        "mdp\nmodule arbiter\n  a : [0..{n}] init 0;\n  b : [0..{n}] init 0;\n  d : [0..2] init 0;\n  \
         w : [0..{n}] init 0;\n  r : [0..2] init 0;\n  h : [0..2] init 0;\n  c : [0..2] init 0;\n"
    );
    for i in 1..=n {
        for (res, hold, code) in [("A", "a", 1), ("B", "b", 2)] {
            // The bug: user n's requests for A are spuriously denied with probability 1/10.
            let free = format!("{hold}=0");
            let (yes, no) = if buggy && i == n && res == "A" {
                ("9/10", "1/10")
            } else {
                ("19/20", "1/20")
            };
            let _ = write!(
                arb,
                "  [req{res}{i}] d=0 & {free} & h=0 -> {yes} : (d'=1)&(w'={i})&(r'={code}) + {no} : (d'=2)&(w'={i})&(r'={code});\n  \
                 [req{res}{i}] d=0 & {free} & h>0 -> (d'=2)&(w'={i})&(r'={code});\n  \
                 [grant{res}{i}] d=1 & w={i} & r={code} -> ({hold}'={i})&(d'=0)&(w'=0)&(r'=0)&(c'=0);\n  \
                 [deny{res}{i}] d=2 & w={i} & r={code} & c<2 -> (d'=0)&(w'=0)&(r'=0)&(c'=c+1);\n  \
                 [deny{res}{i}] d=2 & w={i} & r={code} & c=2 -> (d'=0)&(w'=0)&(r'=0)&(c'=0)&(h'=2);\n  \
                 [rel{res}{i}] {hold}={i} -> ({hold}'=0);\n"
            );
        }
    }
    arb.push_str(
        "  [monitor] h=0 -> 99/100 : true + 1/100 : (h'=1);\n  [reboot] h=1 -> (h'=2);\n  \
         [restart] h=2 -> (h'=0);\nendmodule\n",
    );
    // A user: thinking 0..4 (four `work` steps), waiting for A 5 / B 6, using A 7..8 / B
    // 9..10 (one `work` step each), crashed 11: 12 states, so that |L2| = 12^n as in the
    // thesis.
    let mut users = String::from(
        "mdp\nconst double f = 1/10;\nmodule user1\n  u1 : [0..11] init 0;\n  \
         [work1] u1<4 | u1=7 | u1=9 -> (u1'=u1+1);\n  \
         [reqA1] u1=4 -> (u1'=5);\n  [reqB1] u1=4 -> (u1'=6);\n  \
         [grantA1] u1=5 -> (u1'=7);\n  [denyA1] u1=5 -> (u1'=0);\n  \
         [grantB1] u1=6 -> (u1'=9);\n  [denyB1] u1=6 -> (u1'=0);\n  \
         [relA1] u1=8 -> 1-f : (u1'=0) + f : (u1'=11);\n  \
         [relB1] u1=10 -> 1-f : (u1'=0) + f : (u1'=11);\n  [reset1] u1=11 -> (u1'=0);\nendmodule\n",
    );
    for i in 2..=n {
        let _ = writeln!(
            users,
            "module user{i} = user1 [u1=u{i}, reqA1=reqA{i}, reqB1=reqB{i}, grantA1=grantA{i}, denyA1=denyA{i}, \
             grantB1=grantB{i}, denyB1=denyB{i}, relA1=relA{i}, relB1=relB{i}, reset1=reset{i}, work1=work{i}] endmodule"
        );
    }
    // The specification is resource A's life cycle as the users see it (3n+1 states, the
    // thesis's is 3n+3): A free; a request is answered by a grant with probability 19/20
    // and a spurious denial with 1/20 (or, nondeterministically, surely denied: the
    // arbiter may be degraded); held by i until i releases it. B, work, crashes and the
    // arbiter's internal steps are hidden.
    let mut spec = format!(
        "mdp\nmodule spec\n  sa : [0..{n}] init 0;\n  pa : [0..2] init 0;\n  wa : [0..{n}] init 0;\n"
    );
    for i in 1..=n {
        let _ = write!(
            spec,
            "  [reqA{i}] sa=0 & pa=0 -> 19/20 : (pa'=1)&(wa'={i}) + 1/20 : (pa'=2)&(wa'={i});\n  \
             [reqA{i}] sa=0 & pa=0 -> (pa'=2)&(wa'={i});\n  \
             [grantA{i}] pa=1 & wa={i} -> (sa'={i})&(pa'=0)&(wa'=0);\n  \
             [denyA{i}] pa=2 & wa={i} -> (pa'=0)&(wa'=0);\n  [relA{i}] sa={i} -> (sa'=0);\n"
        );
        for a in ["reqB", "grantB", "denyB", "relB", "work", "reset"] {
            let _ = writeln!(spec, "  [{a}{i}] true -> true;");
        }
    }
    spec.push_str(
        "  [monitor] true -> true;\n  [reboot] true -> true;\n  [restart] true -> true;\nendmodule\n",
    );
    (arb, users, spec)
}

fn sensor_network(n: usize, buggy: bool) -> (String, String, String) {
    // L1: a processor (3 states: idle, processing, rebooting after a 1/10 error) and n
    // sensors of 14 states each (six sleep ticks, sensing: nothing 3/4, an event 1/5, a
    // fault 1/20; the event is sent and retried up to twice; a faulty sensor is repaired):
    // 3·14^n = 42/588/8232 states (thesis 43/796/7545).
    let mut l1 = String::from(
        "mdp\nmodule processor\n  p : [0..2] init 0;\n  [deliver] p=0 -> (p'=1);\n  \
         [process] p=1 -> 9/10 : (p'=0) + 1/10 : (p'=2);\n  [reboot] p=2 -> (p'=0);\nendmodule\n\
         module sensor1\n  s1 : [0..13] init 0;\n  [tick1] s1<6 -> (s1'=s1+1);\n  \
         [sense1] s1=6 -> 3/4 : (s1'=0) + 1/5 : (s1'=7) + 1/20 : (s1'=13);\n  \
         [send1] s1=7 | s1=9 | s1=11 -> (s1'=s1+1);\n  [ok1] s1=8 | s1=10 | s1=12 -> (s1'=0);\n  \
         [fail1] s1=8 | s1=10 -> (s1'=s1+1);\n  [fail1] s1=12 -> (s1'=0);\n  [repair1] s1=13 -> (s1'=0);\nendmodule\n",
    );
    for i in 2..=n {
        let _ = writeln!(
            l1,
            "module sensor{i} = sensor1 [s1=s{i}, tick1=tick{i}, sense1=sense{i}, send1=send{i}, ok1=ok{i}, \
             fail1=fail{i}, repair1=repair{i}] endmodule"
        );
    }
    // L2: the radio channel with a buffer of 3 messages for the processor, the response it
    // owes the sender (`r`: accepted, lost on the air, rejected because the buffer is full)
    // and a Gilbert–Elliott link `g` (good: loss 1/20, bad: loss 1/2; the link changes at
    // each transmission, good→bad 1/10, bad→good 3/10): 30 states for every n (thesis 32).
    // The channel does not know who sent: it takes no new message until the sender has
    // collected its response. The bug: a link that stays bad loses 4/7 of
    // the messages instead of 1/2 (a fault in the probabilities only).
    let bad = if buggy {
        "3/10 : (b'=b+1)&(r'=1) + 2/5 : (r'=2)"
    } else {
        "7/20 : (b'=b+1)&(r'=1) + 7/20 : (r'=2)"
    };
    let mut ch = String::from(
        "mdp\nmodule channel\n  b : [0..3] init 0;\n  r : [0..3] init 0;\n  g : bool init true;\n",
    );
    for i in 1..=n {
        let _ = write!(
            ch,
            "  [send{i}] r=0 & b<3 & g -> 171/200 : (b'=b+1)&(r'=1) + 9/200 : (r'=2) + \
             1/20 : (b'=b+1)&(r'=1)&(g'=false) + 1/20 : (r'=2)&(g'=false);\n  \
             [send{i}] r=0 & b<3 & !g -> {bad} + 57/200 : (b'=b+1)&(r'=1)&(g'=true) + 3/200 : (r'=2)&(g'=true);\n  \
             [send{i}] r=0 & b=3 -> (r'=3);\n  [ok{i}] r=1 -> (r'=0);\n  [fail{i}] r>=2 -> (r'=0);\n"
        );
    }
    ch.push_str("  [deliver] b>0 -> (b'=b-1);\nendmodule\n");
    // The specification, "obtained by observing the system's runs": per sensor idle,
    // faulty, ready, waiting after an accepted / a failed transmission, and the link
    // quality, with the channel's and the sensors' probabilities; one transmission at a
    // time. 2·(3^n + 2n·3^(n-1)) = 10/42/162 states (thesis 18/54/162).
    let mut spec = String::from("mdp\nmodule spec\n  g : bool init true;\n");
    for i in 1..=n {
        let _ = writeln!(spec, "  q{i} : [0..4] init 0;");
    }
    let idle: Vec<String> = (1..=n).map(|j| format!("q{j}<3")).collect();
    let idle = idle.join(" & ");
    for i in 1..=n {
        let _ = write!(
            spec,
            "  [tick{i}] q{i}=0 -> true;\n  [sense{i}] q{i}=0 -> 3/4 : true + 1/5 : (q{i}'=2) + 1/20 : (q{i}'=1);\n  \
             [repair{i}] q{i}=1 -> (q{i}'=0);\n  \
             [send{i}] q{i}=2 & {idle} & g -> 171/200 : (q{i}'=3) + 9/200 : (q{i}'=4) + 1/20 : (q{i}'=3)&(g'=false) + \
             1/20 : (q{i}'=4)&(g'=false);\n  \
             [send{i}] q{i}=2 & {idle} & !g -> 7/20 : (q{i}'=3) + 7/20 : (q{i}'=4) + 57/200 : (q{i}'=3)&(g'=true) + \
             3/200 : (q{i}'=4)&(g'=true);\n  \
             [send{i}] q{i}=2 & {idle} -> (q{i}'=4);\n  [ok{i}] q{i}=3 -> (q{i}'=0);\n  \
             [fail{i}] q{i}=4 -> (q{i}'=2);\n  [fail{i}] q{i}=4 -> (q{i}'=0);\n"
        );
    }
    spec.push_str("  [deliver] true -> true;\n  [process] true -> true;\n  [reboot] true -> true;\nendmodule\n");
    (l1, ch, spec)
}
