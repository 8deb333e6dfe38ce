WITH fm_input AS (
  SELECT
    `student` AS fm_g0,
    `default` AS y_true,
    CAST(`p_default` AS FLOAT64) AS y_score,
    CAST(1.0 AS FLOAT64) AS sample_weight
  FROM `preds`
), fm_statistics AS (
  SELECT
    fm_g0,
    COUNT(*) AS n_rows,
    COUNTIF(y_true IS NULL OR NOT (
      y_true = 1 OR y_true = 0
    )) AS invalid_label_y_true,
    COUNTIF(
      y_score IS NULL
      OR NOT (
        CAST(y_score AS FLOAT64) - CAST(y_score AS FLOAT64) = 0
      )
    ) AS invalid_finite_y_score
  FROM fm_input
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
      sample_weight * CAST(CAST(y_true = 1 AS INT64) AS FLOAT64) AS pw,
      sample_weight * CAST(CAST(y_true = 0 AS INT64) AS FLOAT64) AS nw
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
    CAST(2.0 AS FLOAT64) - COALESCE(
      SUM(
        CASE
          WHEN pos_total > 0 AND neg_total > 0
          THEN pw / pos_total * (
            (
              2 * fp - nw
            ) / neg_total
          )
          ELSE CAST(0.0 AS FLOAT64)
        END
      ),
      0
    ) AS auc_sum,
    COALESCE(
      SUM(
        CASE
          WHEN pos_total = 0 OR neg_total = 0
          THEN CAST(NULL AS FLOAT64)
          WHEN fp / neg_total <= CAST(0.1 AS FLOAT64)
          THEN (
            fp / neg_total - (
              fp - nw
            ) / neg_total
          ) * (
            tp / pos_total + (
              tp - pw
            ) / pos_total
          ) / 2
          WHEN (
            fp - nw
          ) / neg_total < CAST(0.1 AS FLOAT64)
          THEN (
            CAST(0.1 AS FLOAT64) - (
              fp - nw
            ) / neg_total
          ) * (
            (
              tp - pw
            ) / pos_total + (
              (
                tp - pw
              ) / pos_total + (
                tp / pos_total - (
                  tp - pw
                ) / pos_total
              ) * (
                CAST(0.1 AS FLOAT64) - (
                  fp - nw
                ) / neg_total
              ) / (
                fp / neg_total - (
                  fp - nw
                ) / neg_total
              )
            )
          ) / 2
          ELSE CAST(0.0 AS FLOAT64)
        END
      ),
      0
    ) AS partial_auc,
    COALESCE(SUM(pw), 0) AS sum_pos,
    COALESCE(SUM(nw), 0) AS sum_neg
  FROM fm_curve
  GROUP BY
    fm_g0
), fm_values AS (
  SELECT
    fm_g0,
    n_rows,
    CASE
      WHEN invalid_label_y_true + invalid_finite_y_score > 0
      OR sum_pos = 0
      OR sum_neg = 0
      OR CAST(0.1 AS FLOAT64) <= 0
      OR CAST(0.1 AS FLOAT64) > 1
      THEN CAST(NULL AS FLOAT64)
      WHEN CAST(0.1 AS FLOAT64) IS NULL OR CAST(0.1 AS FLOAT64) = 1
      THEN auc_sum / 2
      ELSE (
        1 + (
          partial_auc - CAST(0.1 AS FLOAT64) * CAST(0.1 AS FLOAT64) / 2
        ) / (
          CAST(0.1 AS FLOAT64) - CAST(0.1 AS FLOAT64) * CAST(0.1 AS FLOAT64) / 2
        )
      ) / 2
    END AS `roc_auc_score(max_fpr=0.1)`,
    invalid_label_y_true,
    invalid_finite_y_score
  FROM (
    SELECT
      fm_2.fm_g0,
      fm_2.n_rows,
      fm_2.invalid_label_y_true,
      fm_2.invalid_finite_y_score,
      fm_3.auc_sum,
      fm_3.partial_auc,
      fm_3.sum_pos,
      fm_3.sum_neg
    FROM fm_statistics AS fm_2
    INNER JOIN fm_ranking AS fm_3
      ON fm_2.fm_g0 IS NOT DISTINCT FROM fm_3.fm_g0
  ) AS fm_4
), fm_statistics_2 AS (
  SELECT
    fm_g0,
    COUNT(*) AS n_rows,
    COUNTIF(y_true IS NULL OR NOT (
      y_true = 1 OR y_true = 0
    )) AS invalid_label_y_true,
    COUNTIF(
      y_score IS NULL
      OR NOT (
        CAST(y_score AS FLOAT64) - CAST(y_score AS FLOAT64) = 0
      )
    ) AS invalid_finite_y_score
  FROM fm_input
  GROUP BY
    fm_g0
), fm_scores_2 AS (
  SELECT
    fm_g0,
    y_score,
    COALESCE(SUM(pw), 0) AS pw,
    COALESCE(SUM(nw), 0) AS nw
  FROM (
    SELECT
      fm_g0,
      y_score,
      sample_weight * CAST(CAST(y_true = 1 AS INT64) AS FLOAT64) AS pw,
      sample_weight * CAST(CAST(y_true = 0 AS INT64) AS FLOAT64) AS nw
    FROM fm_input
  ) AS fm_5
  GROUP BY
    fm_g0,
    y_score
), fm_curve_2 AS (
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
  FROM fm_scores_2
), fm_ranking_2 AS (
  SELECT
    fm_g0,
    CAST(2.0 AS FLOAT64) - COALESCE(
      SUM(
        CASE
          WHEN pos_total > 0 AND neg_total > 0
          THEN pw / pos_total * (
            (
              2 * fp - nw
            ) / neg_total
          )
          ELSE CAST(0.0 AS FLOAT64)
        END
      ),
      0
    ) AS auc_sum,
    COALESCE(
      SUM(
        CASE
          WHEN pos_total = 0 OR neg_total = 0
          THEN CAST(NULL AS FLOAT64)
          WHEN fp / neg_total <= CAST(0.2 AS FLOAT64)
          THEN (
            fp / neg_total - (
              fp - nw
            ) / neg_total
          ) * (
            tp / pos_total + (
              tp - pw
            ) / pos_total
          ) / 2
          WHEN (
            fp - nw
          ) / neg_total < CAST(0.2 AS FLOAT64)
          THEN (
            CAST(0.2 AS FLOAT64) - (
              fp - nw
            ) / neg_total
          ) * (
            (
              tp - pw
            ) / pos_total + (
              (
                tp - pw
              ) / pos_total + (
                tp / pos_total - (
                  tp - pw
                ) / pos_total
              ) * (
                CAST(0.2 AS FLOAT64) - (
                  fp - nw
                ) / neg_total
              ) / (
                fp / neg_total - (
                  fp - nw
                ) / neg_total
              )
            )
          ) / 2
          ELSE CAST(0.0 AS FLOAT64)
        END
      ),
      0
    ) AS partial_auc,
    COALESCE(SUM(pw), 0) AS sum_pos,
    COALESCE(SUM(nw), 0) AS sum_neg
  FROM fm_curve_2
  GROUP BY
    fm_g0
), fm_values_2 AS (
  SELECT
    fm_g0,
    n_rows,
    CASE
      WHEN invalid_label_y_true + invalid_finite_y_score > 0
      OR sum_pos = 0
      OR sum_neg = 0
      OR CAST(0.2 AS FLOAT64) <= 0
      OR CAST(0.2 AS FLOAT64) > 1
      THEN CAST(NULL AS FLOAT64)
      WHEN CAST(0.2 AS FLOAT64) IS NULL OR CAST(0.2 AS FLOAT64) = 1
      THEN auc_sum / 2
      ELSE (
        1 + (
          partial_auc - CAST(0.2 AS FLOAT64) * CAST(0.2 AS FLOAT64) / 2
        ) / (
          CAST(0.2 AS FLOAT64) - CAST(0.2 AS FLOAT64) * CAST(0.2 AS FLOAT64) / 2
        )
      ) / 2
    END AS `roc_auc_score(max_fpr=0.2)`,
    invalid_label_y_true,
    invalid_finite_y_score
  FROM (
    SELECT
      fm_6.fm_g0,
      fm_6.n_rows,
      fm_6.invalid_label_y_true,
      fm_6.invalid_finite_y_score,
      fm_7.auc_sum,
      fm_7.partial_auc,
      fm_7.sum_pos,
      fm_7.sum_neg
    FROM fm_statistics_2 AS fm_6
    INNER JOIN fm_ranking_2 AS fm_7
      ON fm_6.fm_g0 IS NOT DISTINCT FROM fm_7.fm_g0
  ) AS fm_8
), fm_parts AS (
  SELECT
    fm_g0,
    fm_part0_n_rows AS n_rows,
    `fm_part0_roc_auc_score(max_fpr=0.1)` AS `roc_auc_score(max_fpr=0.1)`,
    `fm_part1_roc_auc_score(max_fpr=0.2)` AS `roc_auc_score(max_fpr=0.2)`
  FROM (
    SELECT
      fm_11.fm_g0,
      fm_11.fm_part0_n_rows,
      fm_11.`fm_part0_roc_auc_score(max_fpr=0.1)`,
      fm_12.`fm_part1_roc_auc_score(max_fpr=0.2)`
    FROM (
      SELECT
        fm_g0,
        n_rows AS fm_part0_n_rows,
        `roc_auc_score(max_fpr=0.1)` AS `fm_part0_roc_auc_score(max_fpr=0.1)`
      FROM (
        SELECT
          fm_g0,
          n_rows,
          CASE
            WHEN `roc_auc_score(max_fpr=0.1)` - `roc_auc_score(max_fpr=0.1)` = 0
            THEN LEAST(GREATEST(`roc_auc_score(max_fpr=0.1)`, CAST(0.0 AS FLOAT64)), CAST(1.0 AS FLOAT64))
            ELSE CAST(NULL AS FLOAT64)
          END AS `roc_auc_score(max_fpr=0.1)`
        FROM fm_values
      ) AS fm_9
    ) AS fm_11
    INNER JOIN (
      SELECT
        fm_g0,
        `roc_auc_score(max_fpr=0.2)` AS `fm_part1_roc_auc_score(max_fpr=0.2)`
      FROM (
        SELECT
          fm_g0,
          n_rows,
          CASE
            WHEN `roc_auc_score(max_fpr=0.2)` - `roc_auc_score(max_fpr=0.2)` = 0
            THEN LEAST(GREATEST(`roc_auc_score(max_fpr=0.2)`, CAST(0.0 AS FLOAT64)), CAST(1.0 AS FLOAT64))
            ELSE CAST(NULL AS FLOAT64)
          END AS `roc_auc_score(max_fpr=0.2)`
        FROM fm_values_2
      ) AS fm_10
    ) AS fm_12
      ON fm_11.fm_g0 IS NOT DISTINCT FROM fm_12.fm_g0
  ) AS fm_13
)
SELECT
  *
FROM (
  SELECT
    fm_g0 AS `student`,
    n_rows AS n_rows,
    `roc_auc_score(max_fpr=0.1)` AS `roc_auc_score(max_fpr=0.1)`,
    `roc_auc_score(max_fpr=0.2)` AS `roc_auc_score(max_fpr=0.2)`
  FROM fm_parts
) AS fm_14
ORDER BY
  `student` NULLS LAST
