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
    CAST(COLUMNS(LAMBDA fm_name : fm_name = 'w') AS DOUBLE) AS sample_weight
  FROM "preds"
), fm_cells AS (
  SELECT
    fm_g0,
    y_true,
    y_pred,
    COUNT(*) AS n_rows,
    COALESCE(SUM(sample_weight), 0) AS weight,
    COUNT(*) FILTER(WHERE
      y_true IS NULL OR NOT (
        y_true = 1 OR y_true = 0
      )) AS invalid_label_y_true,
    COUNT(*) FILTER(WHERE
      y_score IS NULL OR NOT ISFINITE(CAST(y_score AS DOUBLE))) AS invalid_finite_y_score,
    COUNT(*) FILTER(WHERE
      sample_weight IS NULL
      OR NOT (
        ISFINITE(CAST(sample_weight AS DOUBLE)) AND CAST(sample_weight AS DOUBLE) >= 0
      )) AS invalid_weight_sample_weight,
    COUNT(*) FILTER(WHERE
      y_score IS NULL OR NOT (
        NOT ISNAN(CAST(y_score AS DOUBLE))
      )) AS invalid_score_y_score
  FROM fm_input
  GROUP BY
    fm_g0,
    y_true,
    y_pred
), fm_statistics AS (
  SELECT
    fm_g0,
    CAST(COALESCE(SUM(n_rows), 0) AS BIGINT) AS n_rows,
    CAST(COALESCE(SUM(invalid_label_y_true), 0) AS BIGINT) AS invalid_label_y_true,
    CAST(COALESCE(SUM(invalid_finite_y_score), 0) AS BIGINT) AS invalid_finite_y_score,
    CAST(COALESCE(SUM(invalid_weight_sample_weight), 0) AS BIGINT) AS invalid_weight_sample_weight,
    CAST(COALESCE(SUM(invalid_score_y_score), 0) AS BIGINT) AS invalid_score_y_score,
    COALESCE(SUM(weight * CAST(y_true = 1 AND y_pred = 1 AS DOUBLE)), 0) AS tp,
    COALESCE(SUM(weight * CAST(y_true = 0 AND y_pred = 1 AS DOUBLE)), 0) AS fp,
    COALESCE(SUM(weight * CAST(y_true = 1 AND y_pred = 0 AS DOUBLE)), 0) AS fn
  FROM fm_cells
  GROUP BY
    fm_g0
), fm_scores AS (
  SELECT
    fm_g0,
    y_score,
    COALESCE(SUM(pw), 0) AS pw,
    COALESCE(SUM(nw), 0) AS nw
  FROM (
    SELECT
      fm_g0,
      y_score,
      sample_weight * CAST(y_true = 1 AS DOUBLE) AS pw,
      sample_weight * CAST(y_true = 0 AS DOUBLE) AS nw
    FROM fm_input
  ) AS fm_1
  GROUP BY
    fm_g0,
    y_score
), fm_curve AS (
  SELECT
    fm_g0,
    y_score,
    pw,
    nw,
    SUM(pw) OVER (
      PARTITION BY fm_g0
      ORDER BY y_score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS tp,
    SUM(nw) OVER (
      PARTITION BY fm_g0
      ORDER BY y_score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS fp,
    SUM(pw) OVER (PARTITION BY fm_g0) AS pos_total,
    SUM(nw) OVER (PARTITION BY fm_g0) AS neg_total
  FROM fm_scores
), fm_ranking AS (
  SELECT
    fm_g0,
    CAST(2.0 AS DOUBLE) - COALESCE(
      SUM(
        CASE
          WHEN pos_total > 0 AND neg_total > 0
          THEN pw / pos_total * (
            (
              2 * fp - nw
            ) / neg_total
          )
          ELSE CAST(0.0 AS DOUBLE)
        END
      ),
      0
    ) AS auc_sum,
    COALESCE(SUM(pw), 0) AS sum_pos,
    COALESCE(SUM(nw), 0) AS sum_neg,
    COALESCE(
      SUM(
        CASE WHEN pw > 0 THEN pw * (
          tp / (
            tp + fp
          )
        ) ELSE CAST(0.0 AS DOUBLE) END
      ),
      0
    ) AS ap_sum
  FROM fm_curve
  GROUP BY
    fm_g0
), fm_values AS (
  SELECT
    fm_g0,
    n_rows,
    CASE
      WHEN invalid_label_y_true + invalid_finite_y_score + invalid_weight_sample_weight > 0
      OR sum_pos = 0
      OR sum_neg = 0
      OR CAST(NULL AS DOUBLE) <= 0
      OR CAST(NULL AS DOUBLE) > 1
      THEN CAST(NULL AS DOUBLE)
      WHEN CAST(NULL AS DOUBLE) IS NULL OR CAST(NULL AS DOUBLE) = 1
      THEN auc_sum / 2
      ELSE (
        1 + (
          CAST(NULL AS DOUBLE) - CAST(NULL AS DOUBLE) * CAST(NULL AS DOUBLE) / 2
        ) / (
          CAST(NULL AS DOUBLE) - CAST(NULL AS DOUBLE) * CAST(NULL AS DOUBLE) / 2
        )
      ) / 2
    END AS roc_auc_score,
    CASE
      WHEN invalid_label_y_true + invalid_finite_y_score + invalid_weight_sample_weight > 0
      OR sum_pos = 0
      THEN CAST(NULL AS DOUBLE)
      ELSE ap_sum / sum_pos
    END AS average_precision_score,
    CASE
      WHEN invalid_label_y_true + invalid_weight_sample_weight + invalid_score_y_score > 0
      THEN CAST(NULL AS DOUBLE)
      WHEN 2 * tp + fn + fp = 0
      THEN CAST(NULL AS DOUBLE)
      ELSE 2 * tp / (
        2 * tp + fn + fp
      )
    END AS f1_score,
    invalid_label_y_true,
    invalid_finite_y_score,
    invalid_weight_sample_weight,
    invalid_score_y_score
  FROM (
    SELECT
      fm_2.fm_g0,
      fm_2.n_rows,
      fm_2.invalid_label_y_true,
      fm_2.invalid_finite_y_score,
      fm_2.invalid_weight_sample_weight,
      fm_2.invalid_score_y_score,
      fm_2.tp,
      fm_2.fp,
      fm_2.fn,
      fm_3.auc_sum,
      fm_3.sum_pos,
      fm_3.sum_neg,
      fm_3.ap_sum
    FROM fm_statistics AS fm_2
    INNER JOIN fm_ranking AS fm_3
      ON fm_2.fm_g0 IS NOT DISTINCT FROM fm_3.fm_g0
  ) AS fm_4
)
SELECT
  *
FROM (
  SELECT
    fm_g0 AS "student",
    n_rows AS n_rows,
    roc_auc_score AS "roc_auc_score",
    average_precision_score AS "average_precision_score",
    f1_score AS "f1_score"
  FROM (
    SELECT
      fm_g0,
      n_rows,
      CASE
        WHEN ISFINITE(roc_auc_score)
        THEN LEAST(GREATEST(roc_auc_score, CAST(0.0 AS DOUBLE)), CAST(1.0 AS DOUBLE))
        ELSE CAST(NULL AS DOUBLE)
      END AS roc_auc_score,
      CASE
        WHEN ISFINITE(average_precision_score)
        THEN LEAST(GREATEST(average_precision_score, CAST(0.0 AS DOUBLE)), CAST(1.0 AS DOUBLE))
        ELSE CAST(NULL AS DOUBLE)
      END AS average_precision_score,
      CASE
        WHEN ISFINITE(f1_score)
        THEN LEAST(GREATEST(f1_score, CAST(0.0 AS DOUBLE)), CAST(1.0 AS DOUBLE))
        ELSE CAST(NULL AS DOUBLE)
      END AS f1_score
    FROM fm_values
  ) AS fm_5
) AS fm_6
ORDER BY
  "student"
