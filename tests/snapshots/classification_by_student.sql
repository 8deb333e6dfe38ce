WITH fm_input AS (
  SELECT
    COLUMNS(LAMBDA fm_name : fm_name = 'student') AS fm_g0,
    COLUMNS(LAMBDA fm_name : fm_name = 'default') AS y_true,
    CASE
      WHEN CAST(COLUMNS(LAMBDA fm_name : fm_name = 'p_default') AS DOUBLE) >= CAST(0.5 AS DOUBLE)
      THEN 1
      ELSE 0
    END AS y_pred,
    CAST(COLUMNS(LAMBDA fm_name : fm_name = 'p_default') AS DOUBLE) AS y_score,
    CAST(1.0 AS DOUBLE) AS sample_weight
  FROM "preds"
), fm_cells AS (
  SELECT
    fm_g0,
    y_true,
    y_pred,
    COUNT(*) AS n_rows,
    COALESCE(SUM(sample_weight), 0) AS weight,
    COALESCE(
      SUM(
        sample_weight * -LN(
          GREATEST(
            LEAST(
              CASE
                WHEN y_true = 1
                THEN CAST(y_score AS DOUBLE)
                ELSE 1 - CAST(y_score AS DOUBLE)
              END,
              CAST(0.9999999999999998 AS DOUBLE)
            ),
            CAST(2.220446049250313e-16 AS DOUBLE)
          )
        )
      ),
      0
    ) AS sum_log_loss,
    COALESCE(SUM(sample_weight), 0) AS sum_weight,
    COUNT(*) FILTER(WHERE
      y_true IS NULL OR NOT (
        y_true = 1 OR y_true = 0
      )) AS invalid_label_y_true,
    COUNT(*) FILTER(WHERE
      y_score IS NULL OR NOT (
        NOT ISNAN(CAST(y_score AS DOUBLE))
      )) AS invalid_score_y_score,
    COUNT(*) FILTER(WHERE
      y_score IS NULL
      OR NOT (
        NOT ISNAN(CAST(y_score AS DOUBLE))
        AND CAST(y_score AS DOUBLE) >= 0
        AND CAST(y_score AS DOUBLE) <= 1
      )) AS invalid_probability_y_score
  FROM fm_input
  GROUP BY
    fm_g0,
    y_true,
    y_pred
), fm_statistics AS (
  SELECT
    fm_g0,
    CAST(COALESCE(SUM(n_rows), 0) AS BIGINT) AS n_rows,
    COALESCE(SUM(sum_log_loss), 0) AS sum_log_loss,
    COALESCE(SUM(sum_weight), 0) AS sum_weight,
    CAST(COALESCE(SUM(invalid_label_y_true), 0) AS BIGINT) AS invalid_label_y_true,
    CAST(COALESCE(SUM(invalid_score_y_score), 0) AS BIGINT) AS invalid_score_y_score,
    CAST(COALESCE(SUM(invalid_probability_y_score), 0) AS BIGINT) AS invalid_probability_y_score,
    COALESCE(SUM(weight * CAST(y_true = 1 AND y_pred = 1 AS DOUBLE)), 0) AS tp,
    COALESCE(SUM(weight * CAST(y_true = 0 AND y_pred = 1 AS DOUBLE)), 0) AS fp,
    COALESCE(SUM(weight * CAST(y_true = 1 AND y_pred = 0 AS DOUBLE)), 0) AS fn
  FROM fm_cells
  GROUP BY
    fm_g0
), fm_values AS (
  SELECT
    fm_g0,
    n_rows,
    CASE
      WHEN invalid_label_y_true + invalid_score_y_score > 0
      THEN CAST(NULL AS DOUBLE)
      WHEN 2 * tp + fn + fp = 0
      THEN CAST(NULL AS DOUBLE)
      ELSE 2 * tp / (
        2 * tp + fn + fp
      )
    END AS f1_score,
    CASE
      WHEN invalid_label_y_true + invalid_probability_y_score > 0 OR sum_weight = 0
      THEN CAST(NULL AS DOUBLE)
      ELSE sum_log_loss / sum_weight
    END AS log_loss,
    invalid_label_y_true,
    invalid_score_y_score,
    invalid_probability_y_score
  FROM fm_statistics
)
SELECT
  *
FROM (
  SELECT
    fm_g0 AS "student",
    n_rows AS n_rows,
    f1_score AS "f1_score",
    log_loss AS "log_loss"
  FROM (
    SELECT
      fm_g0,
      n_rows,
      CASE
        WHEN ISFINITE(f1_score)
        THEN LEAST(GREATEST(f1_score, CAST(0.0 AS DOUBLE)), CAST(1.0 AS DOUBLE))
        ELSE CAST(NULL AS DOUBLE)
      END AS f1_score,
      CASE
        WHEN ISFINITE(log_loss)
        THEN GREATEST(log_loss, CAST(0.0 AS DOUBLE))
        ELSE CAST(NULL AS DOUBLE)
      END AS log_loss
    FROM fm_values
  ) AS fm_1
) AS fm_2
ORDER BY
  "student"
