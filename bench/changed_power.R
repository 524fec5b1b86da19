# What "what changed" lists at few iterations (issue 46), Welch's t-test
# against Mann-Whitney, each with Benjamini-Hochberg at q = 0.05 over every
# counter tested, as analysis/compare/changed.cc does (the floors, sparse
# rows counted 0, ratios left out where absent, two constant sides that
# differ p = 0 for Welch).
#   Rscript bench/changed_power.R model [TRIALS]
#     A model of 124 counters at 6 against 6 iterations: quiet and noisy
#     log-normal counts sharing a per-iteration load factor, normal,
#     heavy-tailed (t, 2 df), Poisson and sparse counts; an A/A comparison
#     and 10 counters moved by +20% and +50%.
#   Rscript bench/changed_power.R aa|ba FILE.csv DRAWS [N]
#     Real runs' per-iteration values (bench/changed_power.sh writes them:
#     variant, iteration, name, value, kind), resampled: DRAWS comparisons
#     of N (6) iterations a side, drawn without replacement. A/A: both
#     sides from the pooled iterations of the first run (two variants
#     without knobs); B/A: one side from each variant.
# Prints, per test, the share of comparisons that list any row, the mean
# number of rows, and (B/A) how often named rows are listed.
args <- commandArgs(TRUE)
set.seed(46)
q <- 0.05

p_of <- function(test, a, b) {
  if (test == "welch") {
    if (length(a) < 2 || length(b) < 2) return(NA)
    if (var(a) + var(b) == 0) return(if (a[1] != b[1]) 0 else NA)
    return(t.test(a, b)$p.value)
  }
  if (length(unique(c(a, b))) == 1) return(NA)
  suppressWarnings(wilcox.test(a, b)$p.value)
}

# Rows listed by one comparison: names of the counters with q <= 0.05.
listed <- function(test, sides, share) {
  p <- c()
  for (name in names(sides)) {
    a <- sides[[name]][[1]]; b <- sides[[name]][[2]]
    if (length(a) == 0 || length(b) == 0) next
    floor <- if (share[[name]]) 0.1 else 10
    if (name != "bench" && max(abs(mean(a)), abs(mean(b))) < floor) next
    v <- p_of(test, a, b)
    if (!is.na(v)) p[name] <- v
  }
  names(p)[p.adjust(p, "BH") <= q]
}

summarise <- function(label, hits, watch = c()) {
  n <- length(hits)
  line <- sprintf("%-34s any row %5.3f  rows/comparison %6.3f", label,
                  mean(sapply(hits, length) > 0), mean(sapply(hits, length)))
  for (w in watch) line <- paste0(line, sprintf("  %s %5.3f", w, mean(sapply(hits, function(h) w %in% h))))
  cat(line, "\n")
}

if (args[1] == "model") {
  trials <- if (length(args) > 1) as.integer(args[2]) else 500
  m <- 124; n <- 6
  kinds <- rep(c("quiet", "noisy", "normal", "heavy", "pois", "sparse"), length.out = m)
  gen <- function(kind, f) switch(kind,
    quiet = 1000 * exp(0.1 * rnorm(n) + 0.1 * f), noisy = 1000 * exp(0.7 * rnorm(n) + 0.3 * f),
    normal = 500 + 50 * rnorm(n), heavy = 1000 + 100 * rt(n, 2), pois = rpois(n, 15),
    sparse = ifelse(runif(n) < 0.3, rpois(n, 200), 0))
  share <- setNames(as.list(rep(FALSE, m)), paste0("c", 1:m))
  for (shift in c(0, 0.2, 0.5)) {
    for (test in c("welch", "mwu")) {
      hits <- replicate(trials, {
        fa <- rnorm(n); fb <- rnorm(n)  # the machine's load, shared by an iteration's counters
        sides <- list()
        for (i in 1:m) sides[[paste0("c", i)]] <- list(gen(kinds[i], fa),
                                                       gen(kinds[i], fb) * (if (i <= 10) 1 + shift else 1))
        listed(test, sides, share)
      }, simplify = FALSE)
      moved <- sapply(hits, function(h) sum(as.integer(sub("c", "", h)) <= 10 & shift > 0))
      summarise(sprintf("model %+3.0f%% on 10 of 124, %s", 100 * shift, test), hits)
      cat(sprintf("%-34s false rows/comparison %6.3f  moved rows found %5.2f of 10\n", "",
                  mean(sapply(hits, length) - moved), mean(moved)))
    }
  }
} else if (args[1] %in% c("aa", "ba")) {
  d <- read.csv(args[2], header = FALSE, col.names = c("variant", "iteration", "name", "value", "kind"),
                stringsAsFactors = FALSE)
  draws <- as.integer(args[3]); n <- if (length(args) > 3) as.integer(args[4]) else 6
  variants <- unique(d$variant)
  its <- unique(d[, c("variant", "iteration")])
  kind <- tapply(d$kind, d$name, function(k) k[1])
  share <- as.list(kind %in% c("share", "ratio")); names(share) <- names(kind)
  # One value per iteration: absent counts and shares 0, absent ratios left out.
  value_of <- function(sel) {
    out <- list()
    key <- paste(sel$variant, sel$iteration)
    sub <- d[paste(d$variant, d$iteration) %in% key, ]
    for (name in names(kind)) {
      rows <- sub[sub$name == name, ]
      v <- rows$value[match(key, paste(rows$variant, rows$iteration))]
      if (kind[[name]] != "ratio") v[is.na(v)] <- 0
      out[[name]] <- v[!is.na(v)]
    }
    out
  }
  aa <- args[1] == "aa"
  # Too few iterations make the draws one comparison, or a handful: at 6
  # ok iterations a variant every B/A draw is the same 6 against 6, so each
  # test lists rows in all draws or in none (a real SCHED_BATCH comparison
  # lists nothing about a quarter of the time), and the shares below are
  # not shares. Said, and under n an error.
  sizes <- if (aa) c(all = nrow(its)) else table(its$variant)
  if (!aa && length(sizes) != 2) stop(sprintf("%s: %d variants with ok iterations, not 2", args[2], length(sizes)))
  if (any(sizes < (if (aa) 2 * n else n)))
    stop(sprintf("%s: %s ok iterations, fewer than %d a side", args[2],
                 paste(names(sizes), sizes, collapse = ", "), n))
  distinct <- if (aa) choose(sizes[[1]], 2 * n) * choose(2 * n, n) else prod(choose(sizes, n))
  if (distinct < draws)
    cat(sprintf("%s: %s ok iterations: %g distinct comparisons, not %d independent ones\n",
                args[2], paste(names(sizes), sizes, collapse = ", "), distinct, draws))
  for (test in c("welch", "mwu")) {
    hits <- lapply(seq_len(draws), function(i) {
      if (aa) {
        pick <- its[sample(nrow(its), 2 * n), ]
        a <- pick[1:n, ]; b <- pick[n + 1:n, ]
      } else {
        a0 <- its[its$variant == variants[1], ]; b0 <- its[its$variant == variants[2], ]
        a <- a0[sample(nrow(a0), n), ]; b <- b0[sample(nrow(b0), n), ]
      }
      va <- value_of(a); vb <- value_of(b)
      sides <- lapply(setNames(names(va), names(va)), function(k) list(va[[k]], vb[[k]]))
      listed(test, sides, share)
    })
    label <- sprintf("%s %s, %d a side, %s", toupper(args[1]), basename(args[2]), n, test)
    summarise(label, hits, if (aa) c() else c("bench", "stat.ctxt"))
    if (aa) {
      counts <- sort(table(unlist(hits)), decreasing = TRUE)
      if (length(counts)) cat("  rows listed:", paste(names(counts), counts, collapse = ", "), "\n")
    }
  }
} else {
  stop("usage: Rscript bench/changed_power.R model [TRIALS] | aa|ba FILE.csv DRAWS [N]")
}
