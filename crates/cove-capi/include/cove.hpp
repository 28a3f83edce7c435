// Cove: a header-only C++17 wrapper over the C API (cove.h), with RAII and exceptions.
//
//   cove::Context ctx;
//   ctx.declare("inv", {"Int"});
//   cove::Term x = ctx.var("x", "Int");
//   ctx.add_clause(ctx.apply("=>", {ctx.apply("=", {x, ctx.integer(0)}), ctx.apply("inv", {x})}));
//   cove::Result r = ctx.solve(cove::Config().engine("spacer").timeout(30));
//   if (r.answer() == COVE_ANSWER_SAT) std::cout << r.model();
//
// Every failing call throws cove::Error (status and message); nothing else is added to the C
// API's semantics. Contexts and results are move-only and free themselves.
#ifndef COVE_HPP
#define COVE_HPP

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cove.h"

namespace cove {

// A failed call: the C API's status and message.
class Error : public std::runtime_error {
 public:
  Error(CoveStatus status, const std::string &message)
      : std::runtime_error(message), status_(status) {}
  CoveStatus status() const { return status_; }

 private:
  CoveStatus status_;
};

namespace detail {
inline void check(CoveStatus st) {
  if (st != COVE_STATUS_OK) throw Error(st, cove_last_error());
}
struct StringFree {
  void operator()(char *s) const { cove_string_free(s); }
};
inline std::string take(char *s) {
  if (!s) throw Error(COVE_STATUS_INTERNAL, cove_last_error());
  std::unique_ptr<char, StringFree> owned(s);
  return std::string(owned.get());
}
}  // namespace detail

using Term = CoveTerm;

// How to solve (see CoveConfig); setters chain.
class Config {
 public:
  Config() { detail::check(cove_config_init(&c_)); }
  Config &engine(std::string name) {
    engine_ = std::move(name);
    return *this;
  }
  Config &threads(unsigned n) {
    c_.threads = n;
    return *this;
  }
  Config &timeout(double seconds) {
    c_.timeout_seconds = seconds;
    return *this;
  }
  Config &memory_mb(std::uint64_t mb) {
    c_.memory_mb = mb;
    return *this;
  }
  Config &preprocess(bool on) {
    c_.preprocess = on;
    return *this;
  }
  Config &validate(bool on) {
    c_.validate = on;
    return *this;
  }
  // The C configuration; valid while this object lives unchanged.
  const CoveConfig *get() const {
    c_.engine = engine_.empty() ? nullptr : engine_.c_str();
    return &c_;
  }

 private:
  mutable CoveConfig c_;
  std::string engine_;
};

// One node of a result's term.
struct TermInfo {
  CoveTermKind kind;
  std::string symbol;
  std::string sort;
  std::vector<Term> children;
  std::vector<Term> bound;
};

// One counterexample step.
struct Step {
  bool is_false;          // the root: derives false
  std::string predicate;  // empty at the root
  std::size_t clause;
  std::vector<std::string> args;
  std::vector<std::size_t> premises;
};

// An invariant: predicate, parameters (name, sort) and body (a term of the result).
struct Invariant {
  std::string predicate;
  std::vector<std::pair<std::string, std::string>> params;
  Term body;
};

// The answer of one solve.
class Result {
 public:
  explicit Result(CoveResult *r) : r_(r) {}
  CoveAnswer answer() const { return cove_result_answer(r_.get()); }
  std::string reason() const { return cove_result_reason(r_.get()); }
  std::string engine() const { return cove_result_engine(r_.get()); }
  std::string validation() const { return cove_result_validation(r_.get()); }
  std::string model() const { return cove_result_model(r_.get()); }
  std::string derivation() const { return cove_result_derivation(r_.get()); }

  std::vector<Invariant> invariants() const {
    std::size_t n = 0;
    detail::check(cove_result_num_invariants(r_.get(), &n));
    std::vector<Invariant> out;
    for (std::size_t i = 0; i < n; i++) {
      const char *pred = nullptr;
      Term body = 0;
      std::size_t np = 0;
      detail::check(cove_result_invariant(r_.get(), i, &pred, &body, &np));
      Invariant inv{pred, {}, body};
      for (std::size_t j = 0; j < np; j++) {
        const char *name = nullptr, *sort = nullptr;
        detail::check(cove_result_invariant_param(r_.get(), i, j, &name, &sort));
        inv.params.emplace_back(name, sort);
      }
      out.push_back(std::move(inv));
    }
    return out;
  }

  TermInfo term(Term t) const {
    CoveTermInfo info;
    detail::check(cove_result_term(r_.get(), t, &info));
    return TermInfo{info.kind, info.symbol, info.sort,
                    std::vector<Term>(info.children, info.children + info.num_children),
                    std::vector<Term>(info.bound, info.bound + info.num_bound)};
  }

  // The counterexample's steps; `root` receives the index of the step deriving false.
  std::vector<Step> steps(std::size_t *root = nullptr) const {
    std::size_t n = 0, r = 0;
    detail::check(cove_result_num_steps(r_.get(), &n, &r));
    if (root) *root = r;
    std::vector<Step> out;
    for (std::size_t i = 0; i < n; i++) {
      CoveStep s;
      detail::check(cove_result_step(r_.get(), i, &s));
      Step step{s.predicate == nullptr, s.predicate ? s.predicate : "", s.clause, {}, {}};
      for (std::size_t j = 0; j < s.num_args; j++) step.args.emplace_back(s.args[j]);
      step.premises.assign(s.premises, s.premises + s.num_premises);
      out.push_back(std::move(step));
    }
    return out;
  }

 private:
  struct Free {
    void operator()(CoveResult *r) const { cove_result_free(r); }
  };
  std::unique_ptr<CoveResult, Free> r_;
};

// A CHC system under construction (see CoveContext).
class Context {
 public:
  Context() : c_(cove_context_new()) {
    if (!c_) throw Error(COVE_STATUS_INTERNAL, cove_last_error());
  }

  void declare(const std::string &name, const std::vector<std::string> &sorts) {
    std::vector<const char *> s;
    for (const auto &x : sorts) s.push_back(x.c_str());
    detail::check(cove_declare(c_.get(), name.c_str(), s.data(), s.size()));
  }
  Term var(const std::string &name, const std::string &sort) {
    Term t;
    detail::check(cove_var(c_.get(), name.c_str(), sort.c_str(), &t));
    return t;
  }
  Term integer(std::int64_t v) {
    Term t;
    detail::check(cove_int(c_.get(), v, &t));
    return t;
  }
  Term numeral(const std::string &text, bool real) {
    Term t;
    detail::check(cove_numeral(c_.get(), text.c_str(), real, &t));
    return t;
  }
  Term apply(const std::string &op, std::initializer_list<Term> args) {
    std::vector<Term> a(args);
    Term t;
    detail::check(cove_apply(c_.get(), op.c_str(), a.data(), a.size(), &t));
    return t;
  }
  std::string to_smtlib(Term t) { return detail::take(cove_term_to_smtlib(c_.get(), t)); }
  std::size_t add_clause(Term t) {
    std::size_t n = 0;
    detail::check(cove_add_clause(c_.get(), t, &n));
    return n;
  }
  std::size_t add_clause(const std::string &formula,
                         const std::vector<std::pair<std::string, std::string>> &vars) {
    std::vector<const char *> names, sorts;
    for (const auto &v : vars) {
      names.push_back(v.first.c_str());
      sorts.push_back(v.second.c_str());
    }
    std::size_t n = 0;
    detail::check(cove_add_clause_smtlib(c_.get(), formula.c_str(), names.data(), sorts.data(),
                                         vars.size(), &n));
    return n;
  }
  std::size_t add_smtlib(const std::string &text) {
    std::size_t n = 0;
    detail::check(cove_add_smtlib(c_.get(), text.c_str(), &n));
    return n;
  }
  void push() { detail::check(cove_push(c_.get())); }
  void pop(std::size_t n = 1) { detail::check(cove_pop(c_.get(), n)); }
  std::size_t num_clauses() {
    std::size_t n = 0;
    detail::check(cove_num_clauses(c_.get(), &n));
    return n;
  }
  void set_incremental(bool on) { detail::check(cove_set_incremental(c_.get(), on)); }
  std::string to_smtlib() { return detail::take(cove_to_smtlib(c_.get())); }
  Result solve(const Config &cfg = Config()) {
    CoveResult *r = nullptr;
    detail::check(cove_solve(c_.get(), cfg.get(), &r));
    return Result(r);
  }
  // Stops the running solve (callable from any thread).
  void interrupt() { detail::check(cove_interrupt(c_.get())); }
  CoveContext *get() const { return c_.get(); }

 private:
  struct Free {
    void operator()(CoveContext *c) const { cove_context_free(c); }
  };
  std::unique_ptr<CoveContext, Free> c_;
};

}  // namespace cove

#endif  // COVE_HPP
