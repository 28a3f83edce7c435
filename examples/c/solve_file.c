/* Solves files of any language Cove reads (Horn clauses, AIGER, BTOR2) through the C API,
 * as `cove solve FILE` does, and prints for each: the file's language, the verdict in the
 * language's words, the certificate check, then the answer as `cove solve` prints it.
 *
 * Usage: solve_file FILE...        Build and run: examples/c/run.sh */
#include <stdio.h>
#include <stdlib.h>

#include "cove.h"

int main(int argc, char **argv) {
  CoveConfig config;
  if (cove_config_init(&config) != COVE_STATUS_OK) {
    fprintf(stderr, "cove_config_init: %s\n", cove_last_error());
    return 1;
  }
  config.timeout_seconds = 60;
  for (int f = 1; f < argc; f++) {
    CoveFileResult *res = NULL;
    CoveStatus st = cove_solve_file(argv[f], &config, &res);
    if (st != COVE_STATUS_OK) {
      fprintf(stderr, "%s: status %d: %s\n", argv[f], (int)st, cove_last_error());
      return 1;
    }
    for (size_t i = 0; i < cove_file_result_count(res); i++) {
      const char *safety = cove_file_result_safety(res, i) == COVE_SAFETY_SAFE     ? "safe"
                           : cove_file_result_safety(res, i) == COVE_SAFETY_UNSAFE ? "unsafe"
                                                                                   : "unknown";
      printf("%s: %s %s (%s), validation %s\n", argv[f], cove_file_result_format(res),
             cove_file_result_verdict(res, i), safety, cove_file_result_validation(res, i));
      printf("%s", cove_file_result_text(res, i));
    }
    cove_file_result_free(res);
  }
  return 0;
}
