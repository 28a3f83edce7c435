/* Builds a CHC system through Cove's C API, solves it, prints the answer and the
 * invariant, then checks a second assertion incrementally (push, add, solve, pop).
 *
 *   inv(x) <- x = 0
 *   inv(x + 1) <- inv(x) and x < 10
 *   false <- inv(x) and x > 10          (the assertion x <= 10: sat, with an invariant)
 *   false <- inv(x) and x = 7           (pushed: x never reaches 7? unsat, a counterexample)
 *
 * Build and run: examples/c/run.sh */
#include <stdio.h>
#include <stdlib.h>

#include "cove.h"

/* Exits with the API's message when a call fails. */
static void check(CoveStatus st, const char *what) {
  if (st != COVE_STATUS_OK) {
    fprintf(stderr, "%s failed (%d): %s\n", what, (int)st, cove_last_error());
    exit(1);
  }
}

/* Prints a term of a result in prefix form, walking it with cove_result_term (recursion is
 * fine here: invariants of this example are shallow). */
static void print_term(const CoveResult *res, CoveTerm t) {
  CoveTermInfo info;
  check(cove_result_term(res, t, &info), "cove_result_term");
  if (info.num_children == 0) {
    printf("%s", info.symbol);
    return;
  }
  printf("(%s", info.symbol);
  for (size_t i = 0; i < info.num_children; i++) {
    printf(" ");
    print_term(res, info.children[i]);
  }
  printf(")");
}

int main(void) {
  CoveContext *ctx = cove_context_new();
  if (!ctx) {
    fprintf(stderr, "cove_context_new: %s\n", cove_last_error());
    return 1;
  }
  const char *sorts[] = {"Int"};
  check(cove_declare(ctx, "inv", sorts, 1), "declare inv");

  /* Clauses as terms built through the API. */
  CoveTerm x, zero, one, ten, t_init, inv_x, fact, lt, body, next, inv_next, step;
  check(cove_var(ctx, "x", "Int", &x), "var x");
  check(cove_int(ctx, 0, &zero), "int");
  check(cove_int(ctx, 1, &one), "int");
  check(cove_int(ctx, 10, &ten), "int");
  CoveTerm args[2];
  args[0] = x; args[1] = zero;
  check(cove_apply(ctx, "=", args, 2, &t_init), "=");
  check(cove_apply(ctx, "inv", &x, 1, &inv_x), "inv(x)");
  args[0] = t_init; args[1] = inv_x;
  check(cove_apply(ctx, "=>", args, 2, &fact), "=>");
  check(cove_add_clause(ctx, fact, NULL), "add fact");
  args[0] = x; args[1] = ten;
  check(cove_apply(ctx, "<", args, 2, &lt), "<");
  args[0] = inv_x; args[1] = lt;
  check(cove_apply(ctx, "and", args, 2, &body), "and");
  args[0] = x; args[1] = one;
  check(cove_apply(ctx, "+", args, 2, &next), "+");
  check(cove_apply(ctx, "inv", &next, 1, &inv_next), "inv(x+1)");
  args[0] = body; args[1] = inv_next;
  check(cove_apply(ctx, "=>", args, 2, &step), "=>");
  check(cove_add_clause(ctx, step, NULL), "add step");

  /* The assertion as SMT-LIB2 text. */
  const char *names[] = {"x"};
  check(cove_add_clause_smtlib(ctx, "(=> (and (inv x) (> x 10)) false)", names, sorts, 1,
                               NULL),
        "add query");

  CoveConfig cfg;
  check(cove_config_init(&cfg), "config");
  cfg.engine = "spacer";
  cfg.timeout_seconds = 30;

  CoveResult *res = NULL;
  check(cove_solve(ctx, &cfg, &res), "solve");
  if (cove_result_answer(res) != COVE_ANSWER_SAT) {
    fprintf(stderr, "expected sat, got %d (%s)\n", (int)cove_result_answer(res),
            cove_result_reason(res));
    return 1;
  }
  printf("sat\n");
  printf("%s", cove_result_model(res));
  size_t n = 0;
  check(cove_result_num_invariants(res, &n), "num invariants");
  for (size_t i = 0; i < n; i++) {
    const char *pred;
    CoveTerm inv_body;
    size_t np;
    check(cove_result_invariant(res, i, &pred, &inv_body, &np), "invariant");
    printf("invariant of %s over", pred);
    for (size_t j = 0; j < np; j++) {
      const char *pname, *psort;
      check(cove_result_invariant_param(res, i, j, &pname, &psort), "param");
      printf(" %s:%s", pname, psort);
    }
    printf(": ");
    print_term(res, inv_body);
    printf("\n");
  }
  cove_result_free(res);

  /* Incrementally: a violated assertion in a scope. */
  check(cove_push(ctx), "push");
  check(cove_add_smtlib(ctx, "(assert (forall ((x Int)) (=> (and (inv x) (= x 7)) false)))",
                        NULL),
        "add query 2");
  check(cove_solve(ctx, &cfg, &res), "solve 2");
  if (cove_result_answer(res) != COVE_ANSWER_UNSAT) {
    fprintf(stderr, "expected unsat\n");
    return 1;
  }
  size_t steps, root;
  check(cove_result_num_steps(res, &steps, &root), "steps");
  printf("unsat\ncounterexample of %zu steps:", steps);
  /* Follow the first premise from the root down to the fact: inv(7), inv(6), ..., inv(0). */
  CoveStep st;
  check(cove_result_step(res, root, &st), "step");
  while (st.num_premises > 0) {
    check(cove_result_step(res, st.premises[0], &st), "step");
    printf(" %s(%s)", st.predicate, st.args[0]);
  }
  printf("\n");
  cove_result_free(res);
  check(cove_pop(ctx, 1), "pop");

  /* Errors are return codes with a message, never an abort. */
  CoveStatus bad = cove_pop(ctx, 1);
  printf("pop with no scope: status %d, \"%s\"\n", (int)bad, cove_last_error());

  cove_context_free(ctx);
  return 0;
}
