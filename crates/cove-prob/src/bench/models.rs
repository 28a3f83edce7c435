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
//!   users. `l1` is the arbiter, which answers a request by granting or denying; it denies
//!   spuriously with probability 1/20. `l2` are the users, who crash with probability 1/10
//!   on release. Spec: mutual exclusion on A and on B, everything else hidden. Bug: the
//!   arbiter does not check that B is free when user n asks for it.
//! * **SN(n)** — a wireless sensor network: `n` sensors, a FIFO channel with a buffer of
//!   `n` slots that loses a message with probability 1/10 (reporting the loss), and a
//!   processor that acknowledges processed messages. `l1` is channel and processor, `l2`
//!   the sensors. A full buffer receiving a message moves to an error state offering
//!   `overflow`. Spec: `overflow` never happens (every other action is allowed). Bug:
//!   sensor n re-sends without waiting for an acknowledgement.

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
    let mut arb = format!(
        "mdp\nconst double q = 1/20;\nmodule arbiter\n  a : [0..{n}] init 0;\n  b : [0..{n}] init 0;\n  \
         d : [0..2] init 0;\n  w : [0..{n}] init 0;\n  r : [0..2] init 0;\n"
    );
    for i in 1..=n {
        for (res, holder, code) in [("A", "a", 1), ("B", "b", 2)] {
            let free = if buggy && i == n && res == "B" {
                "true".to_string()
            } else {
                format!("{holder}=0")
            };
            let _ = write!(
                arb,
                "  [req{res}{i}] d=0 & {free} -> 1-q : (d'=1) & (w'={i}) & (r'={code}) + q : (d'=2) & (w'={i}) & (r'={code});\n  \
                 [req{res}{i}] d=0 & !({free}) -> (d'=2) & (w'={i}) & (r'={code});\n  \
                 [grant{res}{i}] d=1 & w={i} & r={code} -> ({holder}'={i}) & (d'=0) & (w'=0) & (r'=0);\n  \
                 [deny{res}{i}] d=2 & w={i} & r={code} -> (d'=0) & (w'=0) & (r'=0);\n  \
                 [rel{res}{i}] {holder}={i} -> ({holder}'=0);\n"
            );
        }
    }
    arb.push_str("endmodule\n");
    // A user: thinking 0..4 (four `work` steps), waiting for A 5 / B 6, using A 7..8 / B
    // 9..10 (one `work` step each), crashed 11: 12 states, so that |L2| = 12^n as in the
    // thesis; thinking and working interleave across users, which makes |L| grow.
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
    // Mutual exclusion on A and B, and each user's crash on release with probability
    // 1/10 (a crashed user is reset before it acts again); the rest is hidden.
    let mut spec = format!(
        "mdp\nconst double f = 1/10;\nmodule spec\n  sa : [0..{n}] init 0;\n  sb : [0..{n}] init 0;\n"
    );
    for i in 1..=n {
        let _ = writeln!(spec, "  k{i} : bool init false;");
    }
    for i in 1..=n {
        let _ = write!(
            spec,
            "  [reqA{i}] !k{i} -> true;\n  [reqB{i}] !k{i} -> true;\n  [denyA{i}] true -> true;\n  [denyB{i}] true -> true;\n  \
             [work{i}] true -> true;\n  [reset{i}] k{i} -> (k{i}'=false);\n  [grantA{i}] sa=0 -> (sa'={i});\n  \
             [relA{i}] sa={i} -> 1-f : (sa'=0) + f : (sa'=0) & (k{i}'=true);\n  \
             [grantB{i}] sb=0 -> (sb'={i});\n  [relB{i}] sb={i} -> 1-f : (sb'=0) + f : (sb'=0) & (k{i}'=true);\n"
        );
    }
    spec.push_str("endmodule\n");
    (arb, users, spec)
}

fn sensor_network(n: usize, buggy: bool) -> (String, String, String) {
    let k = n; // buffer slots
    let mut ch = format!(
        "mdp\nconst double l = 1/10;\nmodule channel\n  e : bool init false;\n  o : [0..{n}] init 0;\n  x : [0..{n}] init 0;\n"
    );
    for j in 1..=k {
        let _ = writeln!(ch, "  b{j} : [0..{n}] init 0;");
    }
    for i in 1..=n {
        // append into the first free slot
        for j in 1..=k {
            let mut guard = format!("!e & b{j}=0");
            if j > 1 {
                let _ = write!(guard, " & b{}>0", j - 1);
            }
            let _ = writeln!(ch, "  [send{i}] {guard} -> (b{j}'={i});");
        }
        let _ = writeln!(ch, "  [send{i}] !e & b{k}>0 -> (e'=true);");
        let _ = writeln!(
            ch,
            "  [deliver{i}] o={i} -> (o'=0);\n  [lost{i}] x={i} -> (x'=0);"
        );
    }
    // pass the head on: delivered or lost (reported)
    let mut shift = String::new();
    for j in 1..k {
        let _ = write!(shift, " & (b{j}'=b{})", j + 1);
    }
    let _ = write!(shift, " & (b{k}'=0)");
    let _ = writeln!(
        ch,
        "  [pass] !e & b1>0 & o=0 & x=0 -> 1-l : (o'=b1){shift} + l : (x'=b1){shift};"
    );
    ch.push_str("  [overflow] e -> true;\nendmodule\n");
    ch.push_str(&format!("module processor\n  m : [0..{n}] init 0;\n"));
    for i in 1..=n {
        let _ = writeln!(
            ch,
            "  [deliver{i}] m=0 -> (m'={i});\n  [ack{i}] m={i} -> (m'=0);"
        );
    }
    ch.push_str("endmodule\n");
    let mut sensors = String::from(
        "mdp\nmodule sensor1\n  y1 : [0..1] init 0;\n  [send1] y1=0 -> (y1'=1);\n  [ack1] y1=1 -> (y1'=0);\n  [lost1] y1=1 -> (y1'=0);\n",
    );
    if buggy && n == 1 {
        sensors.push_str("  [send1] y1=1 -> true;\n");
    }
    sensors.push_str("endmodule\n");
    for i in 2..=n {
        if buggy && i == n {
            let _ = write!(
                sensors,
                "module sensor{i}\n  y{i} : [0..1] init 0;\n  [send{i}] true -> (y{i}'=1);\n  [ack{i}] y{i}=1 -> (y{i}'=0);\n  \
                 [lost{i}] y{i}=1 -> (y{i}'=0);\nendmodule\n"
            );
        } else {
            let _ = writeln!(
                sensors,
                "module sensor{i} = sensor1 [y1=y{i}, send1=send{i}, ack1=ack{i}, lost1=lost{i}] endmodule"
            );
        }
    }
    let mut spec = String::from("mdp\nmodule spec\n  z : [0..0] init 0;\n  [pass] true -> true;\n");
    for i in 1..=n {
        let _ = write!(
            spec,
            "  [send{i}] true -> true;\n  [deliver{i}] true -> true;\n  [lost{i}] true -> true;\n  [ack{i}] true -> true;\n"
        );
    }
    spec.push_str("  [overflow] false -> true;\nendmodule\n");
    (ch, sensors, spec)
}
