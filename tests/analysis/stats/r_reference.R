# Reference values for tests/analysis/stats/stats_r_test.cc, computed by R itself
# (t.test, wilcox.test, qt, qnorm, pbinom). Regenerate with
#   Rscript tests/analysis/stats/r_reference.R > tests/analysis/stats/r_reference.json
# (Debian: apt-get install r-base-core). CI never runs R: the JSON output is
# committed, and the test compares schedlab's numbers against it.
set.seed(20240501)

datasets <- list(
  list(name = "hackbench golden (n = 5 each)",
       a = c(0.430, 0.425, 0.441, 0.428, 0.426), b = c(0.442, 0.447, 0.439, 0.445, 0.437)),
  list(name = "pgbench c6 golden (n = 6 each)",
       a = c(27000, 28100, 27500, 27900, 27600, 28300),
       b = c(34000, 34300, 33800, 34500, 34100, 34000)),
  list(name = "n = 2 each", a = c(1.5, 1.7), b = c(1.9, 2.4)),
  list(name = "ties within and across sides (rounded normals)",
       a = round(rnorm(8, 10, 2)), b = round(rnorm(8, 12, 2))),
  list(name = "one side identical values", a = c(3, 3, 3, 3), b = c(3, 4, 5, 3.5)),
  list(name = "a zero in the data", a = c(0, 1.2, 0.8, 1.1, 0.9), b = c(1.3, 1.25, 1.4, 1.1, 1.2)),
  list(name = "unequal sizes and variances",
       a = round(rnorm(4, 100, 1), 3), b = round(rnorm(9, 103, 6), 3)),
  list(name = "n = 30 each, no ties",
       a = round(rnorm(30, 50, 5), 6), b = round(rnorm(30, 52, 5), 6)),
  list(name = "n = 60 and 55: normal approximation",
       a = round(rnorm(60, 7, 1), 6), b = round(rnorm(55, 7.3, 1.2), 6)),
  list(name = "skewed lognormal, n = 12 and 15",
       a = round(rlnorm(12, 2, 0.6), 5), b = round(rlnorm(15, 2.3, 0.6), 5)),
  list(name = "negative values", a = c(-1.5, -0.5, 0.25, -2, -1), b = c(0.5, 1, -0.25, 1.5)),
  list(name = "n = 3 each, fully separated", a = c(1, 2, 3), b = c(10, 11, 12)),
  list(name = "ties only across sides", a = c(1, 2, 3, 4, 5, 6, 7), b = c(4, 5, 6, 7, 8, 9)),
  list(name = "both sides identical", a = c(1, 1, 1), b = c(1, 1, 1)),
  list(name = "n = 1 against n = 4", a = c(5), b = c(4, 4.5, 5.5, 6))
)

num <- function(x) {
  if (is.null(x) || length(x) == 0 || is.na(x) || !is.finite(x)) "null" else sprintf("%.17g", x)
}
vec <- function(x) paste0("[", paste(sapply(x, num), collapse = ", "), "]")
field <- function(k, v) sprintf("\"%s\": %s", k, v)
obj <- function(...) paste0("{", paste(c(...), collapse = ", "), "}")
safe <- function(expr) tryCatch(suppressWarnings(expr), error = function(e) NULL)

# t.test of all-zero data (the logs of identical values) returns NaN bounds
# instead of an error; either way there is no interval.
ci_pair <- function(ci) if (is.null(ci) || any(!is.finite(ci))) "null" else vec(ci)

median_ci <- function(x, level) {
  n <- length(x)
  tail <- (1 - level) / 2
  ok <- which(pbinom(0:(floor((n + 1) / 2) - 1), n, 0.5) <= tail)
  if (length(ok) == 0) return("null")
  l <- max(ok)  # rank l, since pbinom index j = l - 1
  s <- sort(x)
  obj(field("low", num(s[l])), field("high", num(s[n + 1 - l])),
      field("lower_rank", l), field("coverage", num(1 - 2 * pbinom(l - 1, n, 0.5))))
}

side <- function(x) {
  pos <- all(x > 0)
  fields <- c(
    field("n", length(x)),
    field("amean", num(mean(x))),
    field("median", num(median(x))),
    field("variance", num(if (length(x) > 1) var(x) else NA)),
    field("stddev", num(if (length(x) > 1) sd(x) else NA)),
    field("hmean", num(if (pos) 1 / mean(1 / x) else NA)),
    field("gmean", num(if (pos) exp(mean(log(x))) else NA)))
  for (level in c(0.95, 0.9)) {
    tag <- sprintf("%02d", round(level * 100))
    amean_ci <- safe(t.test(x, conf.level = level)$conf.int)
    hmean_ci <- if (pos) safe(t.test(1 / x, conf.level = level)$conf.int) else NULL
    hmean_ci <- if (!is.null(hmean_ci) && hmean_ci[1] > 0) rev(1 / hmean_ci) else NULL
    gmean_ci <- if (pos) safe(exp(t.test(log(x), conf.level = level)$conf.int)) else NULL
    fields <- c(fields,
                field(paste0("amean_ci_", tag), ci_pair(amean_ci)),
                field(paste0("hmean_ci_", tag), ci_pair(hmean_ci)),
                field(paste0("gmean_ci_", tag), ci_pair(gmean_ci)),
                field(paste0("median_ci_", tag), median_ci(x, level)))
  }
  obj(fields)
}

# Fieller's interval of mean(b) / mean(a) with Welch's df, as a % change
# (lower is better and higher is better), written out from its definition.
fieller_pct <- function(a, b, level) {
  if (length(a) < 2 || length(b) < 2) return("null")
  va <- var(a) / length(a); vb <- var(b) / length(b)
  if (va + vb == 0 || mean(a) <= 0) return("null")
  df <- (va + vb)^2 / (va^2 / (length(a) - 1) + vb^2 / (length(b) - 1))
  t <- qt(1 - (1 - level) / 2, df)
  ma <- mean(a); mb <- mean(b)
  A <- ma^2 - t^2 * va
  if (A <= 0) return("null")
  root <- t * sqrt(va * mb^2 + vb * ma^2 - t^2 * va * vb)
  r <- sort(c((ma * mb - root) / A, (ma * mb + root) / A))
  obj(field("higher", vec((r - 1) * 100)), field("lower", vec(rev((1 - r) * 100))))
}

pair <- function(d) {
  a <- d$a; b <- d$b
  welch <- safe(t.test(a, b))
  ties <- length(unique(c(a, b))) != length(c(a, b))
  wdef <- safe(wilcox.test(a, b))
  wexact <- if (!ties) safe(wilcox.test(a, b, exact = TRUE)) else NULL
  wnorm <- safe(wilcox.test(a, b, exact = FALSE, correct = TRUE))
  obj(field("name", sprintf("\"%s\"", d$name)),
      field("a", vec(a)), field("b", vec(b)),
      field("side_a", side(a)), field("side_b", side(b)),
      field("welch", if (is.null(welch)) "null" else
        obj(field("t", num(welch$statistic)), field("df", num(welch$parameter)),
            field("p", num(welch$p.value)))),
      field("ties", if (ties) "true" else "false"),
      field("wilcox_default", if (is.null(wdef)) "null" else
        obj(field("w", num(wdef$statistic)), field("p", num(wdef$p.value)))),
      field("wilcox_exact", if (is.null(wexact)) "null" else
        obj(field("w", num(wexact$statistic)), field("p", num(wexact$p.value)))),
      field("wilcox_normal", if (is.null(wnorm)) "null" else
        obj(field("w", num(wnorm$statistic)), field("p", num(wnorm$p.value)))),
      field("fieller_pct_95", fieller_pct(a, b, 0.95)))
}

quantiles <- c()
for (df in c(1, 2, 4.5, 6.806215, 29, 200)) for (p in c(0.9, 0.975, 0.995))
  quantiles <- c(quantiles, obj(field("df", num(df)), field("p", num(p)),
                                field("qt", num(qt(p, df)))))
normal <- c()
for (p in c(0.9, 0.975, 0.995)) normal <- c(normal, obj(field("p", num(p)), field("qnorm", num(qnorm(p)))))

cat("{\n")
cat(sprintf("  \"generator\": \"tests/analysis/stats/r_reference.R\",\n  \"r_version\": \"%s\",\n", R.version.string))
cat("  \"qt\": [", paste(quantiles, collapse = ",\n    "), "],\n")
cat("  \"qnorm\": [", paste(normal, collapse = ", "), "],\n")
cat("  \"datasets\": [\n    ", paste(sapply(datasets, pair), collapse = ",\n    "), "\n  ]\n}\n")
