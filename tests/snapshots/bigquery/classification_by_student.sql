WITH fm_input AS (
  SELECT
    `student` AS fm_g0,
    `default` AS y_true,
    CASE WHEN CAST(`p_default` AS FLOAT64) >= CAST(0.5 AS FLOAT64) THEN 1 ELSE 0 END AS y_pred,
    CAST(`p_default` AS FLOAT64) AS y_score,
    CAST(1.0 AS FLOAT64) AS sample_weight
  FROM `preds`
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
                THEN CAST(y_score AS FLOAT64)
                ELSE 1 - CAST(y_score AS FLOAT64)
              END,
              CAST(0.9999999999999998 AS FLOAT64)
            ),
            CAST(2.220446049250313e-16 AS FLOAT64)
          )
        )
      ),
      0
    ) AS sum_log_loss,
    COALESCE(SUM(sample_weight), 0) AS sum_weight,
    COUNTIF(y_true IS NULL OR NOT (
      y_true = 1 OR y_true = 0
    )) AS invalid_label_y_true,
    COUNTIF(y_score IS NULL OR NOT (
      NOT IS_NAN(CAST(y_score AS FLOAT64))
    )) AS invalid_score_y_score,
    COUNTIF(
      y_score IS NULL
      OR NOT (
        NOT IS_NAN(CAST(y_score AS FLOAT64))
        AND CAST(y_score AS FLOAT64) >= 0
        AND CAST(y_score AS FLOAT64) <= 1
      )
    ) AS invalid_probability_y_score
  FROM fm_input
  GROUP BY
    fm_g0,
    y_true,
    y_pred
), fm_statistics AS (
  SELECT
    fm_g0,
    CAST(COALESCE(SUM(n_rows), 0) AS INT64) AS n_rows,
    COALESCE(SUM(sum_log_loss), 0) AS sum_log_loss,
    COALESCE(SUM(sum_weight), 0) AS sum_weight,
    CAST(COALESCE(SUM(invalid_label_y_true), 0) AS INT64) AS invalid_label_y_true,
    CAST(COALESCE(SUM(invalid_score_y_score), 0) AS INT64) AS invalid_score_y_score,
    CAST(COALESCE(SUM(invalid_probability_y_score), 0) AS INT64) AS invalid_probability_y_score,
    COALESCE(SUM(weight * CAST(CAST(y_true = 1 AND y_pred = 1 AS INT64) AS FLOAT64)), 0) AS tp,
    COALESCE(SUM(weight * CAST(CAST(y_true = 0 AND y_pred = 1 AS INT64) AS FLOAT64)), 0) AS fp,
    COALESCE(SUM(weight * CAST(CAST(y_true = 1 AND y_pred = 0 AS INT64) AS FLOAT64)), 0) AS fn
  FROM fm_cells
  GROUP BY
    fm_g0
), fm_values AS (
  SELECT
    fm_g0,
    n_rows,
    CASE
      WHEN invalid_label_y_true + invalid_score_y_score > 0
      THEN CAST(NULL AS FLOAT64)
      WHEN 2 * tp + fn + fp = 0
      THEN CAST(NULL AS FLOAT64)
      ELSE 2 * tp / (
        2 * tp + fn + fp
      )
    END AS f1_score,
    CASE
      WHEN invalid_label_y_true + invalid_probability_y_score > 0 OR sum_weight = 0
      THEN CAST(NULL AS FLOAT64)
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
    fm_g0 AS `student`,
    n_rows AS n_rows,
    f1_score AS `f1_score`,
    log_loss AS `log_loss`
  FROM (
    SELECT
      fm_g0,
      n_rows,
      CASE
        WHEN f1_score - f1_score = 0
        THEN LEAST(GREATEST(f1_score, CAST(0.0 AS FLOAT64)), CAST(1.0 AS FLOAT64))
        ELSE CAST(NULL AS FLOAT64)
      END AS f1_score,
      CASE
        WHEN log_loss - log_loss = 0
        THEN GREATEST(log_loss, CAST(0.0 AS FLOAT64))
        ELSE CAST(NULL AS FLOAT64)
      END AS log_loss
    FROM fm_values
  ) AS fm_1
) AS fm_2
ORDER BY
  `student` NULLS LAST
