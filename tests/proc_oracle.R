# pROC's DeLong figures per group of a CSV (g, y, s1[, s2]): the oracle of tests/proc.py.
# Usage: Rscript proc_oracle.R input.csv output.csv level
suppressMessages(library(pROC))
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1])
level <- as.numeric(args[3])
paired <- "s2" %in% names(d)
row <- function(g) {
  s <- d[d$g == g, ]
  out <- data.frame(g = g, auc = NA, var = NA, low = NA, high = NA, z = NA, p = NA, dlow = NA, dhigh = NA)
  r1 <- roc(s$y, s$s1, levels = c(0, 1), direction = "<", quiet = TRUE)
  out$auc <- as.numeric(auc(r1))
  if (sum(s$y == 1) < 2 || sum(s$y == 0) < 2) return(out)
  out$var <- var(r1, method = "delong")
  ci <- ci.auc(r1, method = "delong", conf.level = level)
  out$low <- ci[1]
  out$high <- ci[3]
  if (paired) {
    r2 <- roc(s$y, s$s2, levels = c(0, 1), direction = "<", quiet = TRUE)
    t <- suppressWarnings(roc.test(r1, r2, method = "delong", paired = TRUE, conf.level = level))
    out$z <- unname(t$statistic)
    out$p <- t$p.value
    out$dlow <- t$conf.int[1]
    out$dhigh <- t$conf.int[2]
  }
  out
}
write.csv(do.call(rbind, lapply(unique(d$g), row)), args[2], row.names = FALSE)
