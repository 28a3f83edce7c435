// The C example (solve.c) through the C++ wrapper cove.hpp: same system, same output.
#include <iostream>

#include "cove.hpp"

static void print_term(const cove::Result &r, cove::Term t) {
  cove::TermInfo info = r.term(t);
  if (info.children.empty()) {
    std::cout << info.symbol;
    return;
  }
  std::cout << "(" << info.symbol;
  for (cove::Term c : info.children) {
    std::cout << " ";
    print_term(r, c);
  }
  std::cout << ")";
}

int main() {
  try {
    cove::Context ctx;
    ctx.declare("inv", {"Int"});
    cove::Term x = ctx.var("x", "Int");
    cove::Term inv_x = ctx.apply("inv", {x});
    ctx.add_clause(ctx.apply("=>", {ctx.apply("=", {x, ctx.integer(0)}), inv_x}));
    ctx.add_clause(ctx.apply("=>", {ctx.apply("and", {inv_x, ctx.apply("<", {x, ctx.integer(10)})}),
                                    ctx.apply("inv", {ctx.apply("+", {x, ctx.integer(1)})})}));
    ctx.add_clause("(=> (and (inv x) (> x 10)) false)", {{"x", "Int"}});

    cove::Config cfg;
    cfg.engine("spacer").timeout(30);
    cove::Result r = ctx.solve(cfg);
    if (r.answer() != COVE_ANSWER_SAT) {
      std::cerr << "expected sat: " << r.reason() << "\n";
      return 1;
    }
    std::cout << "sat\n" << r.model();
    for (const cove::Invariant &inv : r.invariants()) {
      std::cout << "invariant of " << inv.predicate << " over";
      for (const auto &p : inv.params) std::cout << " " << p.first << ":" << p.second;
      std::cout << ": ";
      print_term(r, inv.body);
      std::cout << "\n";
    }

    ctx.push();
    ctx.add_smtlib("(assert (forall ((x Int)) (=> (and (inv x) (= x 7)) false)))");
    cove::Result r2 = ctx.solve(cfg);
    if (r2.answer() != COVE_ANSWER_UNSAT) {
      std::cerr << "expected unsat\n";
      return 1;
    }
    std::size_t root = 0;
    std::vector<cove::Step> steps = r2.steps(&root);
    std::cout << "unsat\ncounterexample of " << steps.size() << " steps:";
    const cove::Step *s = &steps[root];
    while (!s->premises.empty()) {
      s = &steps[s->premises[0]];
      std::cout << " " << s->predicate << "(" << s->args[0] << ")";
    }
    std::cout << "\n";
    ctx.pop();

    try {
      ctx.pop();
    } catch (const cove::Error &e) {
      std::cout << "pop with no scope: status " << e.status() << ", \"" << e.what() << "\"\n";
    }
  } catch (const cove::Error &e) {
    std::cerr << "cove error " << e.status() << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}
