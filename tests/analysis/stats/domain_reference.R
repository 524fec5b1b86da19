# The reference values of tests/analysis/stats/domain_test.cc: intervals of the
# issue's examples before and after cutting them to a nonnegative domain.
# Run: Rscript tests/analysis/stats/domain_reference.R (R's stats package only).
options(digits = 10)

# Student's interval of the mean, as t.test.
ci <- function(x) t.test(x)$conf.int[1:2]

# Fieller's confidence set for mean(b) / mean(a), Welch's df, as
# significance.cc computes it, written out from its definition: the r with
# (mb - r ma)^2 <= t^2 (vb + r^2 va).
fieller_roots <- function(a, b, level = 0.95) {
  va <- var(a) / length(a); vb <- var(b) / length(b)
  df <- (va + vb)^2 / (va^2 / (length(a) - 1) + vb^2 / (length(b) - 1))
  t <- qt(1 - (1 - level) / 2, df)
  ma <- mean(a); mb <- mean(b)
  A <- ma^2 - t^2 * va
  disc <- va * mb^2 + vb * ma^2 - t^2 * va * vb
  roots <- if (disc >= 0) sort(c((ma * mb - t * sqrt(disc)) / A, (ma * mb + t * sqrt(disc)) / A)) else c(NA, NA)
  list(A = A, disc = disc, roots = roots)
}

hackbench <- c(0.100, 0.104, 5.000)
cat("hackbench time, s: t interval", ci(hackbench), "cut:", pmax(ci(hackbench), 0), "\n")
schbench <- c(24736, 24736, 127616)
cat("schbench wakeup_p999, us: t interval", ci(schbench), "cut:", pmax(ci(schbench), 0), "\n")

# A tight baseline against a noisy variant (lower is better): the ratio's
# interval reaches below 0, so the % change (1 - r) * 100 passes +100%.
base <- c(1.0, 1.1, 0.9); noisy <- c(0.1, 0.2, 3.0)
f <- fieller_roots(base, noisy)
cat("tight vs noisy: A", f$A, "ratio", f$roots, "% change", rev((1 - f$roots) * 100),
    "cut: [", (1 - f$roots[2]) * 100, ",", min(100, (1 - max(f$roots[1], 0)) * 100), "]\n")

# The issue's noisy hackbench baseline against a steady variant: A < 0,
# so Fieller's set lies outside its roots (or is the whole line).
steady <- c(0.101, 0.102, 0.103)
f <- fieller_roots(hackbench, steady)
cat("noisy baseline: A", f$A, "disc", f$disc, "roots", f$roots, "\n")
# Higher is better on rates: a noisy baseline whose set, cut at 0, keeps
# [hi, inf): the change is at least (hi - 1) * 100.
rate_base <- c(100, 110, 2); rate_x <- c(400, 410, 420)
f <- fieller_roots(rate_base, rate_x)
cat("noisy rate baseline: A", f$A, "disc", f$disc, "roots", f$roots,
    "change at least", (f$roots[2] - 1) * 100, "\n")
