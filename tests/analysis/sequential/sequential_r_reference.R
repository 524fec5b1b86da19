# Reference values for tests/analysis/sequential/sequential_r_test.cc, computed by R's
# rpact (getDesignGroupSequential with typeOfDesign "asOF", "asP" or "asKD", sided = 2;
# getAnalysisResults on two-sample means with equalVariances = FALSE and
# normalApproximation = FALSE: Welch's t mapped to z). Regenerate with
#   Rscript tests/analysis/sequential/sequential_r_reference.R > tests/analysis/sequential/sequential_r_reference.json
# (Debian: apt-get install r-cran-rpact). The test reads the committed JSON;
# it does not need R.
suppressWarnings(suppressMessages(library(rpact)))
setLogLevel("DISABLED")
set.seed(20240536)

num <- function(x) if (is.null(x) || length(x) == 0 || is.na(x)) "null" else sprintf("%.17g", x)
vec <- function(x) paste0("[", paste(sapply(x, num), collapse = ", "), "]")
field <- function(k, v) sprintf("\"%s\": %s", k, v)
obj <- function(...) paste0("{", paste(c(...), collapse = ", "), "}")

# A spending function by schedlab's name (gs::parse_spending): obf, pocock, kd(RHO).
gsd <- function(rates, alpha, spending = "obf") {
  if (spending == "obf")
    return(getDesignGroupSequential(informationRates = rates, alpha = alpha, sided = 2,
                                    typeOfDesign = "asOF"))
  if (spending == "pocock")
    return(getDesignGroupSequential(informationRates = rates, alpha = alpha, sided = 2,
                                    typeOfDesign = "asP"))
  rho <- as.numeric(sub("^kd\\((.*)\\)$", "\\1", spending))
  getDesignGroupSequential(informationRates = rates, alpha = alpha, sided = 2,
                           typeOfDesign = "asKD", gammaA = rho)
}
spending_of <- function(x) if (is.null(x$spending)) "obf" else x$spending

# Boundaries: rpact's critical values and cumulative alpha spent.
designs <- list(
  list(alpha = 0.05, rates = c(0.5, 1)),
  list(alpha = 0.05, rates = c(1 / 3, 2 / 3, 1)),
  list(alpha = 0.05, rates = c(0.2, 0.4, 0.6, 0.8, 1)),
  list(alpha = 0.05, rates = seq(0.1, 1, by = 0.1)),
  list(alpha = 0.05, rates = c(0.15, 0.4, 0.75, 1)),
  list(alpha = 0.05, rates = c(0.3, 0.35, 0.9, 1)),
  list(alpha = 0.01, rates = c(0.25, 0.5, 0.75, 1)),
  list(alpha = 0.1, rates = c(0.2, 0.45, 0.7, 1)),
  list(alpha = 0.4, rates = c(0.2, 0.4, 0.6, 0.8, 1)),
  list(alpha = 0.2, rates = c(0.1, 0.3, 0.6, 1)),
  list(alpha = 0.05, rates = seq(0.1, 1, by = 0.1), spending = "pocock"),
  list(alpha = 0.05, rates = c(0.15, 0.4, 0.75, 1), spending = "pocock"),
  list(alpha = 0.01, rates = c(0.25, 0.5, 0.75, 1), spending = "pocock"),
  list(alpha = 0.05, rates = seq(0.1, 1, by = 0.1), spending = "kd(1.5)"),
  list(alpha = 0.05, rates = c(0.3, 0.35, 0.9, 1), spending = "kd(2)"),
  list(alpha = 0.2, rates = c(0.1, 0.3, 0.6, 1), spending = "kd(1)"),
  list(alpha = 0.05, rates = c(0.2, 0.4, 0.6, 0.8, 1), spending = "kd(3)")
)
bounds <- sapply(designs, function(x) {
  d <- gsd(x$rates, x$alpha, spending_of(x))
  obj(field("spending", sprintf("\"%s\"", spending_of(x))),
      field("alpha", num(x$alpha)), field("rates", vec(x$rates)),
      field("critical", vec(d$criticalValues)), field("alpha_spent", vec(d$alphaSpent)))
})

# Analyses: stage-wise samples of a baseline (group 2) and a variant (group 1)
# with n a side proportional to the information rates, so that rpact's rates
# and the correlation of n agree. Each stops where rpact says.
analyses <- list(
  list(name = "a rise, 4 looks", alpha = 0.05, rates = c(0.25, 0.5, 0.75, 1), N = 40,
       sd = 5, shift = 4),
  list(name = "unequal rates, 4 looks", alpha = 0.05, rates = c(0.2, 0.45, 0.7, 1),
       N = 60, sd = 10, shift = 9),
  list(name = "runs to the last look", alpha = 0.05, rates = c(0.25, 0.5, 0.75, 1), N = 24,
       sd = 5, shift = 2.5),
  list(name = "a fall, 5 looks", alpha = 0.05, rates = c(0.2, 0.4, 0.6, 0.8, 1),
       N = 50, sd = 4, shift = -3),
  list(name = "alpha 0.1, 3 looks", alpha = 0.1, rates = c(1 / 3, 2 / 3, 1),
       N = 30, sd = 3, shift = 3),
  list(name = "Pocock-type, 5 looks", alpha = 0.05, rates = c(0.2, 0.4, 0.6, 0.8, 1),
       N = 40, sd = 5, shift = 3.5, spending = "pocock"),
  list(name = "Kim-DeMets 1.5, runs to the last look", alpha = 0.05,
       rates = c(0.25, 0.5, 0.75, 1), N = 24, sd = 5, shift = 2, spending = "kd(1.5)"),
  list(name = "Kim-DeMets 2, a fall", alpha = 0.05, rates = c(0.2, 0.45, 0.7, 1), N = 60,
       sd = 8, shift = -5, spending = "kd(2)")
)
results <- c()
for (x in analyses) {
  repeat {
    n <- diff(c(0, round(x$rates * x$N)))
    a <- lapply(n, function(k) round(rnorm(k, 100, x$sd), 6))
    b <- lapply(n, function(k) round(rnorm(k, 100 + x$shift, x$sd), 6))
    d <- gsd(x$rates, x$alpha, spending_of(x))
    ds <- getDataset(n1 = n, n2 = n, means1 = sapply(b, mean), means2 = sapply(a, mean),
                     stDevs1 = sapply(b, sd), stDevs2 = sapply(a, sd))
    # rpact orders outcomes one way, directionUpper; ours by the side the
    # statistic is on, which for a fall is rpact's directionUpper = FALSE.
    r <- suppressWarnings(getAnalysisResults(d, ds, equalVariances = FALSE,
                                             normalApproximation = FALSE,
                                             directionUpper = x$shift > 0))
    stage <- r$finalStage
    # Stopping at look 1 is a plain fixed-sample interval in rpact (the
    # difference +- qnorm * se); draw again for a sequential one.
    if (!is.na(stage) && stage >= 2) break
  }
  results <- c(results, obj(
    field("name", sprintf("\"%s\"", x$name)),
    field("spending", sprintf("\"%s\"", spending_of(x))), field("alpha", num(x$alpha)),
    field("rates", vec(x$rates)),
    field("base", paste0("[", paste(sapply(a, vec), collapse = ", "), "]")),
    field("variant", paste0("[", paste(sapply(b, vec), collapse = ", "), "]")),
    field("critical", vec(d$criticalValues)),
    field("final_stage", stage),
    field("final_p", num(r$finalPValues[stage])),
    field("final_ci", vec(c(r$finalConfidenceIntervalLowerBounds[stage],
                            r$finalConfidenceIntervalUpperBounds[stage]))),
    field("median_unbiased", num(r$medianUnbiasedEstimates[stage]))))
}

# Planning (schedlab design, analysis/sequential/sequential_planning.h): power.t.test's n
# and rpact's characteristics of the efficacy-only design with the same
# spending at k / K (getDesignCharacteristics: inflation, ASN over the fixed
# design under H0 and H1) and its expected iterations a side at min_effect
# with the t-test's n (getSampleSizeMeans, normalApproximation = FALSE).
# The same again at the information rates of the looks schedlab's design
# takes at that CV (`n`: the iterations a side `schedlab design` prints,
# min 3 unless `min` says, no cap; rates n / max(n); a first look with 12
# degrees of freedom or more is settled, SequentialDesign::settled_df): the reference the
# bench's goal for the mean iterations at min_effect is 1.05 times.
# Computed after the analyses, so their random draws are unchanged.
plans <- list(
  list(alpha = 0.05, power = 0.8, min_effect = 3, cv = 2, K = 10,
       n = c(3, 4, 5, 6, 7, 8, 9, 10)),
  list(alpha = 0.05, power = 0.8, min_effect = 3, cv = 4, K = 10,
       n = c(4, 8, 12, 15, 19, 23, 26, 30, 34, 37)),
  list(alpha = 0.05, power = 0.8, min_effect = 3, cv = 10, K = 10,
       n = c(20, 39, 59, 78, 97, 117, 136, 156, 175, 194)),
  list(alpha = 0.05, power = 0.8, min_effect = 3, cv = 4, K = 10, spending = "pocock",
       n = c(5, 9, 13, 17, 21, 25, 29, 33, 37, 41)),
  list(alpha = 0.05, power = 0.9, min_effect = 2, cv = 5, K = 10, spending = "kd(1.5)",
       n = c(16, 32, 48, 64, 80, 96, 112, 128, 144, 160)),
  list(alpha = 0.01, power = 0.85, min_effect = 5, cv = 3, K = 5, n = c(3, 6, 8, 11, 14)),
  list(alpha = 0.05, power = 0.8, min_effect = 3, cv = 2, K = 10, min = 5,
       n = c(5, 6, 7, 8, 9, 10))
)
characteristics <- function(x, rates, prefix) {
  d <- gsd(rates, x$alpha, spending_of(x))
  d <- getDesignGroupSequential(informationRates = rates, alpha = x$alpha, beta = 1 - x$power,
                                sided = 2, typeOfDesign = d$typeOfDesign, gammaA = d$gammaA)
  ch <- getDesignCharacteristics(d)
  ss <- suppressWarnings(getSampleSizeMeans(d, groups = 2, alternative = x$min_effect,
                                            stDev = x$cv, normalApproximation = FALSE))
  c(field(paste0(prefix, "inflation"), num(ch$inflationFactor)),
    field(paste0(prefix, "asn_ratio_h0"), num(ch$averageSampleNumber0)),
    field(paste0(prefix, "asn_ratio_h1"), num(ch$averageSampleNumber1)),
    field(paste0(prefix, "expected_n_h1"), num(ss$expectedNumberOfSubjectsH1 / 2)))
}
planning <- sapply(plans, function(x) {
  fixed <- power.t.test(delta = x$min_effect, sd = x$cv, sig.level = x$alpha,
                        power = x$power)$n
  obj(field("spending", sprintf("\"%s\"", spending_of(x))), field("alpha", num(x$alpha)),
      field("power", num(x$power)), field("min_effect", num(x$min_effect)),
      field("cv", num(x$cv)), field("looks", x$K),
      field("min", if (is.null(x[["min", exact = TRUE]])) 3 else x[["min", exact = TRUE]]),
      field("power_t_test_n", num(fixed)),
      characteristics(x, seq_len(x$K) / x$K, ""),
      field("looks_n", vec(x$n)),
      characteristics(x, x$n / max(x$n), "looks_"))
})

cat("{\n")
cat(sprintf("  \"generator\": \"tests/analysis/sequential/sequential_r_reference.R\",\n  \"r_version\": \"%s\",\n  \"rpact_version\": \"%s\",\n",
            R.version.string, as.character(packageVersion("rpact"))))
cat("  \"bounds\": [\n    ", paste(bounds, collapse = ",\n    "), "\n  ],\n")
cat("  \"analyses\": [\n    ", paste(results, collapse = ",\n    "), "\n  ],\n")
cat("  \"planning\": [\n    ", paste(planning, collapse = ",\n    "), "\n  ]\n}\n")
