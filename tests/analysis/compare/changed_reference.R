# The reference values of tests/analysis/compare/changed_test.cc: each
# counter's two-sided p-value by R's t.test (Welch) and wilcox.test (exact
# without ties below 50 a side, else normal with tie and continuity
# correction), and the Benjamini-Hochberg q-values by p.adjust(method = "BH")
# over the tested counters; plus p.adjust on a vector with ties.
#   Rscript tests/analysis/compare/changed_reference.R > tests/analysis/compare/changed_reference.json
# The counters are those the test stores (6 iterations a side); the two
# below the floors are not tested, and tasks.tasks (constant, 81 against
# 41) has no Welch test: the C++ gives it p = 0, entered here as such.
# Each counter's base and new values side by side, as the test's Series.
counters <- list(
  "hackbench.time" = list(c(0.080, 0.082, 0.079, 0.081, 0.080, 0.078),
                          c(0.056, 0.058, 0.055, 0.057, 0.0565, 0.054)),
  "stat.ctxt" = list(c(1000, 1020, 990, 1010, 1005, 995), c(600, 620, 590, 610, 605, 580)),
  "stat.intr" = list(c(500, 510, 490, 505, 495, 502), c(498, 507, 493, 506, 499, 501)),
  "schedstat.all.ttwu_local_pct" = list(c(40.0, 41.0, 39.5, 40.5, 40.2, 39.8),
                                        c(30.1, 29.5, 30.5, 31.0, 29.9, 30.2)),
  "profile.self.foo" = list(c(12.5, 13.0, 12.0, 12.8, 12.2, 12.6),
                            c(12.4, 13.1, 12.1, 12.7, 12.3, 12.5)),
  "profile.self.bar" = list(c(0.5, 0.4, 0.6, 0.5, 0.45, 0.55), c(0, 0, 0, 0, 0, 0)),
  "tasks.tasks" = list(c(81, 81, 81, 81, 81, 81), c(41, 41, 41, 41, 41, 41)))
fmt <- function(x) sprintf("%.17g", x)
out <- c()
for (test in c("welch", "mwu")) {
  p <- c()
  for (name in names(counters)) {
    a <- counters[[name]][[1]]; b <- counters[[name]][[2]]
    if (test == "welch") {
      p[name] <- if (name == "tasks.tasks") 0 else t.test(a, b)$p.value
    } else {
      p[name] <- suppressWarnings(wilcox.test(a, b)$p.value)
    }
  }
  q <- p.adjust(p, method = "BH")
  rows <- sapply(names(p), function(n) sprintf('"%s": {"p": %s, "q": %s}', n, fmt(p[n]), fmt(q[n])))
  out <- c(out, sprintf('"%s": {%s}', test, paste(rows, collapse = ", ")))
}
ties <- c(0.01, 0.04, 0.04, 0.03, 0.2, 0.5, 0.0001, 1, 0.049, 0.02, 0.02, 0.9)
out <- c(out, sprintf('"bh_p": [%s]', paste(fmt(ties), collapse = ", ")))
out <- c(out, sprintf('"bh_q": [%s]', paste(fmt(p.adjust(ties, method = "BH")), collapse = ", ")))
cat("{", paste(out, collapse = ",\n"), "}\n", sep = "\n")
