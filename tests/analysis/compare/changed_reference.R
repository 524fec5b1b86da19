# The reference values of tests/analysis/compare/changed_test.cc: each
# counter's two-sided p-value by R's t.test (Welch) and wilcox.test (exact
# without ties below 50 a side, else normal with tie and continuity
# correction), and the Benjamini-Hochberg q-values by p.adjust(method = "BH")
# over the tested counters; plus p.adjust on a vector with ties, and
# Mann-Whitney's floor (below).
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
# Mann-Whitney's floor (analysis/compare/changed_floor.h): the smallest p
# at na against nb iterations without ties (the sides fully separated,
# exact) and with ties (each side constant, normal approximation); that the
# constant sides are the lowest of all is checked here over every pair of
# samples on a grid of three values, 3 to 7 a side (it stops if not).
floors <- c()
for (sizes in list(c(2, 2), c(3, 3), c(5, 7), c(6, 6), c(7, 7), c(8, 8), c(6, 60))) {
  na <- sizes[1]; nb <- sizes[2]
  untied <- wilcox.test(1:na, na + 1:nb)$p.value
  tied <- suppressWarnings(wilcox.test(rep(0, na), rep(1, nb))$p.value)
  floors <- c(floors, sprintf('"%dx%d": {"untied": %s, "tied": %s}', na, nb, fmt(untied), fmt(tied)))
}
out <- c(out, sprintf('"floors": {%s}', paste(floors, collapse = ", ")))
samples <- function(k, vals) unique(t(apply(expand.grid(rep(list(vals), k)), 1, sort)))
for (na in 3:7) for (nb in na:7) {
  A <- samples(na, 1:3); B <- samples(nb, 1:3); lowest <- 1
  for (i in seq_len(nrow(A))) for (j in seq_len(nrow(B)))
    if (length(unique(c(A[i, ], B[j, ]))) > 1)
      lowest <- min(lowest, suppressWarnings(wilcox.test(A[i, ], B[j, ])$p.value))
  constant <- suppressWarnings(wilcox.test(rep(1, na), rep(2, nb))$p.value)
  stopifnot(abs(lowest - constant) < 1e-12 * constant)
}
# The floor at work: 124 counters at 6 against 6 iterations, Mann-Whitney,
# hackbench.time separated without ties, k counters constant on each side
# (50 against 80) and the rest the same values on both sides. BH lists the
# k constant counters together when k >= 4, nothing when k = 3.
time_p <- wilcox.test(counters[["hackbench.time"]][[1]], counters[["hackbench.time"]][[2]])$p.value
const_p <- suppressWarnings(wilcox.test(rep(50, 6), rep(80, 6))$p.value)
same_p <- suppressWarnings(wilcox.test(100:105, 105:100)$p.value)
for (k in 3:4) {
  q <- p.adjust(c(time_p, rep(const_p, k), rep(same_p, 123 - k)), method = "BH")
  out <- c(out, sprintf('"floor_%d": {"time_q": %s, "constant_q": %s, "same_q": %s}', k,
                        fmt(q[1]), fmt(q[2]), fmt(q[124])))
}
cat("{", paste(out, collapse = ",\n"), "}\n", sep = "\n")
