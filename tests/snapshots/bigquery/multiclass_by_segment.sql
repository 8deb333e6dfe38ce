WITH fm_raw AS (
  SELECT
    `segment` AS fm_g0,
    `y` AS y_true,
    `yhat` AS y_pred,
    CAST(1 AS FLOAT64) AS sample_weight,
    CAST(`p_a` AS FLOAT64) AS s_0,
    CAST(`p_b` AS FLOAT64) AS s_1,
    CAST(`p_c` AS FLOAT64) AS s_2
  FROM `preds`
), fm_indexed AS (
  SELECT
    *,
    CASE WHEN y_true = 'a' THEN 0 WHEN y_true = 'b' THEN 1 WHEN y_true = 'c' THEN 2 END AS true_index
  FROM fm_raw
), fm_input AS (
  SELECT
    *,
    CASE
      WHEN true_index = 0
      THEN s_0
      WHEN true_index = 1
      THEN s_1
      WHEN true_index = 2
      THEN s_2
    END AS p_true
  FROM fm_indexed
), fm_cells AS (
  SELECT
    fm_input.fm_g0,
    fm_input.y_true,
    fm_input.y_pred,
    COUNT(*) AS n_rows,
    COALESCE(SUM(sample_weight), 0) AS weight,
    COUNTIF(y_true IS NULL OR NOT (
      y_true = 'a' OR y_true = 'b' OR y_true = 'c'
    )) AS invalid_class_y_true,
    COUNTIF(y_pred IS NULL OR NOT (
      y_pred = 'a' OR y_pred = 'b' OR y_pred = 'c'
    )) AS invalid_class_y_pred,
    COUNTIF(
      s_0 IS NULL
      OR NOT (
        NOT IS_NAN(CAST(s_0 AS FLOAT64))
        AND CAST(s_0 AS FLOAT64) >= 0
        AND CAST(s_0 AS FLOAT64) <= 1
      )
    ) AS invalid_probability_y_score_0,
    COUNTIF(
      s_1 IS NULL
      OR NOT (
        NOT IS_NAN(CAST(s_1 AS FLOAT64))
        AND CAST(s_1 AS FLOAT64) >= 0
        AND CAST(s_1 AS FLOAT64) <= 1
      )
    ) AS invalid_probability_y_score_1,
    COUNTIF(
      s_2 IS NULL
      OR NOT (
        NOT IS_NAN(CAST(s_2 AS FLOAT64))
        AND CAST(s_2 AS FLOAT64) >= 0
        AND CAST(s_2 AS FLOAT64) <= 1
      )
    ) AS invalid_probability_y_score_2,
    COUNTIF(NOT (
      ABS(CAST(s_0 + s_1 + s_2 AS FLOAT64) - 1) <= 1e-05
    )) AS invalid_simplex_y_score
  FROM fm_input
  GROUP BY
    fm_input.fm_g0,
    fm_input.y_true,
    fm_input.y_pred
), fm_groups AS (
  SELECT
    fm_g0,
    CAST(COALESCE(SUM(n_rows), 0) AS INT64) AS n_rows,
    CAST(COALESCE(SUM(invalid_class_y_true), 0) AS INT64) AS invalid_class_y_true,
    CAST(COALESCE(SUM(invalid_class_y_pred), 0) AS INT64) AS invalid_class_y_pred,
    CAST(COALESCE(SUM(invalid_probability_y_score_0), 0) AS INT64) AS invalid_probability_y_score_0,
    CAST(COALESCE(SUM(invalid_probability_y_score_1), 0) AS INT64) AS invalid_probability_y_score_1,
    CAST(COALESCE(SUM(invalid_probability_y_score_2), 0) AS INT64) AS invalid_probability_y_score_2,
    CAST(COALESCE(SUM(invalid_simplex_y_score), 0) AS INT64) AS invalid_simplex_y_score,
    COALESCE(SUM(weight), 0) AS total
  FROM fm_cells
  GROUP BY
    fm_g0
), fm_class_parts AS (
  SELECT
    fm_g0,
    y_true AS class,
    weight AS support,
    CAST(0.0 AS FLOAT64) AS predicted,
    CASE
      WHEN y_true IS NOT DISTINCT FROM y_pred
      THEN weight
      ELSE CAST(0.0 AS FLOAT64)
    END AS tp,
    CAST(0.0 AS FLOAT64) AS fp,
    CASE
      WHEN y_true IS NOT DISTINCT FROM y_pred
      THEN CAST(0.0 AS FLOAT64)
      ELSE weight
    END AS fn
  FROM fm_cells
  UNION ALL
  SELECT
    fm_g0,
    y_pred AS class,
    CAST(0.0 AS FLOAT64) AS support,
    weight AS predicted,
    CAST(0.0 AS FLOAT64) AS tp,
    CASE
      WHEN y_true IS NOT DISTINCT FROM y_pred
      THEN CAST(0.0 AS FLOAT64)
      ELSE weight
    END AS fp,
    CAST(0.0 AS FLOAT64) AS fn
  FROM fm_cells
  UNION ALL
  SELECT
    fm_groups.fm_g0,
    fm_labels.class,
    CAST(0.0 AS FLOAT64) AS support,
    CAST(0.0 AS FLOAT64) AS predicted,
    CAST(0.0 AS FLOAT64) AS tp,
    CAST(0.0 AS FLOAT64) AS fp,
    CAST(0.0 AS FLOAT64) AS fn
  FROM fm_groups
  CROSS JOIN UNNEST([STRUCT('a' AS class), STRUCT('b' AS class), STRUCT('c' AS class)]) AS fm_labels
), fm_classes AS (
  SELECT
    fm_g0,
    class,
    COALESCE(SUM(tp), 0) AS tp,
    COALESCE(SUM(fp), 0) AS fp,
    COALESCE(SUM(fn), 0) AS fn,
    COALESCE(SUM(support), 0) AS support,
    COALESCE(SUM(predicted), 0) AS predicted,
    CASE WHEN class = 'a' THEN 0 WHEN class = 'b' THEN 1 WHEN class = 'c' THEN 2 END AS class_index,
    SUM(SUM(support)) OVER (PARTITION BY fm_g0) AS total
  FROM fm_class_parts
  WHERE
    class = 'a' OR class = 'b' OR class = 'c'
  GROUP BY
    fm_g0,
    class
), fm_class_values AS (
  SELECT
    *,
    CASE
      WHEN 0 > 0
      THEN CAST(NULL AS FLOAT64)
      WHEN tp + fp = 0
      THEN CAST(NULL AS FLOAT64)
      ELSE tp / (
        tp + fp
      )
    END AS precision_score,
    CASE
      WHEN 0 > 0
      THEN CAST(NULL AS FLOAT64)
      WHEN tp + fn = 0
      THEN CAST(NULL AS FLOAT64)
      ELSE tp / (
        tp + fn
      )
    END AS recall_score,
    CASE
      WHEN 0 > 0
      THEN CAST(NULL AS FLOAT64)
      WHEN 2 * tp + fn + fp = 0
      THEN CAST(NULL AS FLOAT64)
      ELSE 2 * tp / (
        2 * tp + fn + fp
      )
    END AS f1_score,
    CASE
      WHEN 0 > 0
      THEN CAST(NULL AS FLOAT64)
      WHEN tp + CASE
        WHEN CAST(1.0 AS FLOAT64) * CAST(1.0 AS FLOAT64) > 1
        THEN 1 / (
          1 + 1 / (
            CAST(1.0 AS FLOAT64) * CAST(1.0 AS FLOAT64)
          )
        )
        ELSE CAST(1.0 AS FLOAT64) * CAST(1.0 AS FLOAT64) / (
          1 + CAST(1.0 AS FLOAT64) * CAST(1.0 AS FLOAT64)
        )
      END * fn + (
        1 - CASE
          WHEN CAST(1.0 AS FLOAT64) * CAST(1.0 AS FLOAT64) > 1
          THEN 1 / (
            1 + 1 / (
              CAST(1.0 AS FLOAT64) * CAST(1.0 AS FLOAT64)
            )
          )
          ELSE CAST(1.0 AS FLOAT64) * CAST(1.0 AS FLOAT64) / (
            1 + CAST(1.0 AS FLOAT64) * CAST(1.0 AS FLOAT64)
          )
        END
      ) * fp = 0
      THEN CAST(NULL AS FLOAT64)
      ELSE tp / (
        tp + CASE
          WHEN CAST(1.0 AS FLOAT64) * CAST(1.0 AS FLOAT64) > 1
          THEN 1 / (
            1 + 1 / (
              CAST(1.0 AS FLOAT64) * CAST(1.0 AS FLOAT64)
            )
          )
          ELSE CAST(1.0 AS FLOAT64) * CAST(1.0 AS FLOAT64) / (
            1 + CAST(1.0 AS FLOAT64) * CAST(1.0 AS FLOAT64)
          )
        END * fn + (
          1 - CASE
            WHEN CAST(1.0 AS FLOAT64) * CAST(1.0 AS FLOAT64) > 1
            THEN 1 / (
              1 + 1 / (
                CAST(1.0 AS FLOAT64) * CAST(1.0 AS FLOAT64)
              )
            )
            ELSE CAST(1.0 AS FLOAT64) * CAST(1.0 AS FLOAT64) / (
              1 + CAST(1.0 AS FLOAT64) * CAST(1.0 AS FLOAT64)
            )
          END
        ) * fp
      )
    END AS fbeta_score,
    CASE
      WHEN 0 > 0
      THEN CAST(NULL AS FLOAT64)
      WHEN tp + fp + fn = 0
      THEN CAST(NULL AS FLOAT64)
      ELSE tp / (
        tp + fp + fn
      )
    END AS jaccard_score
  FROM fm_classes
), fm_class_summary AS (
  SELECT
    fm_g0,
    COALESCE(SUM(tp), 0) AS tp,
    COALESCE(SUM(fp), 0) AS fp,
    COALESCE(SUM(fn), 0) AS fn,
    COALESCE(
      SUM(
        CASE WHEN total = 0 THEN CAST(NULL AS FLOAT64) ELSE support / total END * CASE WHEN total = 0 THEN CAST(NULL AS FLOAT64) ELSE predicted / total END
      ),
      0
    ) AS true_dot_pred,
    COALESCE(
      SUM(
        CASE WHEN total = 0 THEN CAST(NULL AS FLOAT64) ELSE support / total END * CASE WHEN total = 0 THEN CAST(NULL AS FLOAT64) ELSE support / total END
      ),
      0
    ) AS true_dot_true,
    COALESCE(
      SUM(
        CASE WHEN total = 0 THEN CAST(NULL AS FLOAT64) ELSE predicted / total END * CASE WHEN total = 0 THEN CAST(NULL AS FLOAT64) ELSE predicted / total END
      ),
      0
    ) AS pred_dot_pred,
    COUNTIF(support > 0) AS n_true_classes,
    COUNTIF(predicted > 0) AS n_pred_classes,
    CASE
      WHEN CAST(COUNTIF(
        NOT (
          CASE WHEN support > 0 THEN tp / support ELSE CAST(NULL AS FLOAT64) END IS NULL
        )
      ) AS FLOAT64) = 0
      THEN CAST(NULL AS FLOAT64)
      ELSE COALESCE(SUM(CASE WHEN support > 0 THEN tp / support ELSE CAST(NULL AS FLOAT64) END), 0) / CAST(COUNTIF(
        NOT (
          CASE WHEN support > 0 THEN tp / support ELSE CAST(NULL AS FLOAT64) END IS NULL
        )
      ) AS FLOAT64)
    END AS mean_recall,
    CASE
      WHEN CAST(COUNTIF(NOT (
        COALESCE(f1_score, CAST(NULL AS FLOAT64)) IS NULL
      )) AS FLOAT64) = 0
      THEN CAST(NULL AS FLOAT64)
      ELSE COALESCE(SUM(COALESCE(f1_score, CAST(NULL AS FLOAT64))), 0) / CAST(COUNTIF(NOT (
        COALESCE(f1_score, CAST(NULL AS FLOAT64)) IS NULL
      )) AS FLOAT64)
    END AS value_f1_macro
  FROM fm_class_values
  GROUP BY
    fm_g0
), fm_kappa_observed AS (
  SELECT
    fm_cells.fm_g0 AS fm_g0,
    COALESCE(
      SUM(fm_cells.weight * CAST(CAST(t.class_index <> p.class_index AS INT64) AS FLOAT64)),
      0
    ) AS observed_none
  FROM fm_cells
  JOIN fm_classes AS t
    ON fm_cells.fm_g0 IS NOT DISTINCT FROM t.fm_g0 AND t.class = fm_cells.y_true
  JOIN fm_classes AS p
    ON fm_cells.fm_g0 IS NOT DISTINCT FROM p.fm_g0 AND p.class = fm_cells.y_pred
  GROUP BY
    fm_cells.fm_g0
), fm_kappa_expected AS (
  SELECT
    a.fm_g0 AS fm_g0,
    COALESCE(
      SUM(
        a.support * CASE WHEN a.total = 0 THEN CAST(NULL AS FLOAT64) ELSE b.predicted / a.total END * CAST(CAST(a.class_index <> b.class_index AS INT64) AS FLOAT64)
      ),
      0
    ) AS expected_none
  FROM fm_classes AS a
  JOIN fm_classes AS b
    ON a.fm_g0 IS NOT DISTINCT FROM b.fm_g0
  GROUP BY
    a.fm_g0
), fm_rank_input AS (
  SELECT
    fm_g0,
    true_index,
    sample_weight,
    0 AS column_index,
    s_0 AS y_score,
    true_index = 0 AS is_pos
  FROM fm_input
  UNION ALL
  SELECT
    fm_g0,
    true_index,
    sample_weight,
    1 AS column_index,
    s_1 AS y_score,
    true_index = 1 AS is_pos
  FROM fm_input
  UNION ALL
  SELECT
    fm_g0,
    true_index,
    sample_weight,
    2 AS column_index,
    s_2 AS y_score,
    true_index = 2 AS is_pos
  FROM fm_input
), fm_rank_scores AS (
  SELECT
    fm_g0,
    column_index,
    y_score,
    COALESCE(SUM(pw), 0) AS pw,
    COALESCE(SUM(nw), 0) AS nw
  FROM (
    SELECT
      fm_g0,
      column_index,
      y_score,
      sample_weight * CAST(CAST(is_pos = TRUE AS INT64) AS FLOAT64) AS pw,
      sample_weight * CAST(CAST(is_pos = FALSE AS INT64) AS FLOAT64) AS nw
    FROM fm_rank_input
  ) AS fm_1
  GROUP BY
    fm_g0,
    column_index,
    y_score
), fm_rank_curve AS (
  SELECT
    fm_g0,
    column_index,
    y_score,
    pw,
    nw,
    SUM(pw) OVER (
      PARTITION BY fm_g0, column_index
      ORDER BY y_score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS tp,
    SUM(nw) OVER (
      PARTITION BY fm_g0, column_index
      ORDER BY y_score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS fp,
    SUM(pw) OVER (PARTITION BY fm_g0, column_index) AS pos_total,
    SUM(nw) OVER (PARTITION BY fm_g0, column_index) AS neg_total
  FROM fm_rank_scores
), fm_rank_ranking AS (
  SELECT
    fm_g0,
    column_index,
    COALESCE(
      SUM(
        CASE
          WHEN pos_total > 0 AND neg_total > 0
          THEN nw / neg_total * (
            (
              2 * tp - pw
            ) / pos_total
          )
          ELSE CAST(NULL AS FLOAT64)
        END
      ),
      0
    ) AS auc_sum,
    COALESCE(
      SUM(
        CASE
          WHEN pw > 0
          THEN pw * (
            tp / (
              tp + fp
            )
          )
          ELSE CAST(0.0 AS FLOAT64)
        END
      ),
      0
    ) AS ap_sum,
    COALESCE(SUM(pw), 0) AS sum_pos,
    COALESCE(SUM(nw), 0) AS sum_neg
  FROM fm_rank_curve
  GROUP BY
    fm_g0,
    column_index
), fm_rank_values AS (
  SELECT
    *,
    CASE
      WHEN 0 > 0
      OR sum_pos = 0
      OR sum_neg = 0
      OR CAST(NULL AS FLOAT64) <= 0
      OR CAST(NULL AS FLOAT64) > 1
      THEN CAST(NULL AS FLOAT64)
      WHEN CAST(NULL AS FLOAT64) IS NULL OR CAST(NULL AS FLOAT64) = 1
      THEN auc_sum / 2
      ELSE (
        1 + (
          CAST(NULL AS FLOAT64) - CAST(NULL AS FLOAT64) * CAST(NULL AS FLOAT64) / 2
        ) / (
          CAST(NULL AS FLOAT64) - CAST(NULL AS FLOAT64) * CAST(NULL AS FLOAT64) / 2
        )
      ) / 2
    END AS roc_auc_score,
    CASE WHEN 0 > 0 OR sum_pos = 0 THEN CAST(NULL AS FLOAT64) ELSE ap_sum / sum_pos END AS average_precision_score
  FROM fm_rank_ranking
), fm_rank_summary AS (
  SELECT
    fm_g0,
    COUNT(*) AS n_rank_classes,
    CASE
      WHEN CAST(COUNTIF(NOT (
        COALESCE(roc_auc_score, CAST(NULL AS FLOAT64)) IS NULL
      )) AS FLOAT64) = 0
      THEN CAST(NULL AS FLOAT64)
      ELSE COALESCE(SUM(COALESCE(roc_auc_score, CAST(NULL AS FLOAT64))), 0) / CAST(COUNTIF(NOT (
        COALESCE(roc_auc_score, CAST(NULL AS FLOAT64)) IS NULL
      )) AS FLOAT64)
    END AS value_roc_auc_ovr
  FROM fm_rank_values
  GROUP BY
    fm_g0
)
SELECT
  fm_groups.fm_g0 AS `segment`,
  fm_groups.n_rows AS n_rows,
  CASE
    WHEN CASE
      WHEN fm_groups.invalid_class_y_true + fm_groups.invalid_class_y_pred + fm_groups.invalid_probability_y_score_0 + fm_groups.invalid_probability_y_score_1 + fm_groups.invalid_probability_y_score_2 + fm_groups.invalid_simplex_y_score > 0
      THEN CAST(NULL AS FLOAT64)
      ELSE value_f1_macro
    END - CASE
      WHEN fm_groups.invalid_class_y_true + fm_groups.invalid_class_y_pred + fm_groups.invalid_probability_y_score_0 + fm_groups.invalid_probability_y_score_1 + fm_groups.invalid_probability_y_score_2 + fm_groups.invalid_simplex_y_score > 0
      THEN CAST(NULL AS FLOAT64)
      ELSE value_f1_macro
    END = 0
    THEN CASE
      WHEN fm_groups.invalid_class_y_true + fm_groups.invalid_class_y_pred + fm_groups.invalid_probability_y_score_0 + fm_groups.invalid_probability_y_score_1 + fm_groups.invalid_probability_y_score_2 + fm_groups.invalid_simplex_y_score > 0
      THEN CAST(NULL AS FLOAT64)
      ELSE value_f1_macro
    END
    ELSE CAST(NULL AS FLOAT64)
  END AS `f1_macro`,
  CASE
    WHEN CASE
      WHEN fm_groups.invalid_class_y_true + fm_groups.invalid_class_y_pred + fm_groups.invalid_probability_y_score_0 + fm_groups.invalid_probability_y_score_1 + fm_groups.invalid_probability_y_score_2 + fm_groups.invalid_simplex_y_score > 0
      OR expected_none IS NULL
      OR expected_none = 0
      THEN CAST(NULL AS FLOAT64)
      ELSE 1 - observed_none / expected_none
    END - CASE
      WHEN fm_groups.invalid_class_y_true + fm_groups.invalid_class_y_pred + fm_groups.invalid_probability_y_score_0 + fm_groups.invalid_probability_y_score_1 + fm_groups.invalid_probability_y_score_2 + fm_groups.invalid_simplex_y_score > 0
      OR expected_none IS NULL
      OR expected_none = 0
      THEN CAST(NULL AS FLOAT64)
      ELSE 1 - observed_none / expected_none
    END = 0
    THEN CASE
      WHEN fm_groups.invalid_class_y_true + fm_groups.invalid_class_y_pred + fm_groups.invalid_probability_y_score_0 + fm_groups.invalid_probability_y_score_1 + fm_groups.invalid_probability_y_score_2 + fm_groups.invalid_simplex_y_score > 0
      OR expected_none IS NULL
      OR expected_none = 0
      THEN CAST(NULL AS FLOAT64)
      ELSE 1 - observed_none / expected_none
    END
    ELSE CAST(NULL AS FLOAT64)
  END AS `cohen_kappa_score`,
  CASE
    WHEN CASE
      WHEN fm_groups.invalid_class_y_true + fm_groups.invalid_class_y_pred + fm_groups.invalid_probability_y_score_0 + fm_groups.invalid_probability_y_score_1 + fm_groups.invalid_probability_y_score_2 + fm_groups.invalid_simplex_y_score > 0
      THEN CAST(NULL AS FLOAT64)
      ELSE value_roc_auc_ovr
    END - CASE
      WHEN fm_groups.invalid_class_y_true + fm_groups.invalid_class_y_pred + fm_groups.invalid_probability_y_score_0 + fm_groups.invalid_probability_y_score_1 + fm_groups.invalid_probability_y_score_2 + fm_groups.invalid_simplex_y_score > 0
      THEN CAST(NULL AS FLOAT64)
      ELSE value_roc_auc_ovr
    END = 0
    THEN CASE
      WHEN fm_groups.invalid_class_y_true + fm_groups.invalid_class_y_pred + fm_groups.invalid_probability_y_score_0 + fm_groups.invalid_probability_y_score_1 + fm_groups.invalid_probability_y_score_2 + fm_groups.invalid_simplex_y_score > 0
      THEN CAST(NULL AS FLOAT64)
      ELSE value_roc_auc_ovr
    END
    ELSE CAST(NULL AS FLOAT64)
  END AS `roc_auc_ovr`
FROM fm_groups
LEFT JOIN fm_class_summary
  ON fm_groups.fm_g0 IS NOT DISTINCT FROM fm_class_summary.fm_g0
LEFT JOIN fm_kappa_observed
  ON fm_groups.fm_g0 IS NOT DISTINCT FROM fm_kappa_observed.fm_g0
LEFT JOIN fm_kappa_expected
  ON fm_groups.fm_g0 IS NOT DISTINCT FROM fm_kappa_expected.fm_g0
LEFT JOIN fm_rank_summary
  ON fm_groups.fm_g0 IS NOT DISTINCT FROM fm_rank_summary.fm_g0
ORDER BY
  fm_groups.fm_g0 NULLS LAST
