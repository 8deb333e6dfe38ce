WITH fm_input AS (
  SELECT
    fm_g0,
    y_true,
    y_pred,
    sample_weight,
    s_0,
    s_1,
    s_2,
    true_index,
    CASE
      WHEN true_index = 0
      THEN s_0
      WHEN true_index = 1
      THEN s_1
      WHEN true_index = 2
      THEN s_2
      ELSE CAST(NULL AS DOUBLE)
    END AS p_true
  FROM (
    SELECT
      fm_g0,
      y_true,
      y_pred,
      sample_weight,
      s_0,
      s_1,
      s_2,
      CAST(CASE
        WHEN y_true = 'a'
        THEN 0
        WHEN y_true = 'b'
        THEN 1
        WHEN y_true = 'c'
        THEN 2
        ELSE CAST(NULL AS BIGINT)
      END AS BIGINT) AS true_index
    FROM (
      SELECT
        COLUMNS(LAMBDA fm_name : fm_name = 'segment') AS fm_g0,
        COLUMNS(LAMBDA fm_name : fm_name = 'y') AS y_true,
        COLUMNS(LAMBDA fm_name : fm_name = 'yhat') AS y_pred,
        CAST(1 AS DOUBLE) AS sample_weight,
        CAST(COLUMNS(LAMBDA fm_name : fm_name = 'p_a') AS DOUBLE) AS s_0,
        CAST(COLUMNS(LAMBDA fm_name : fm_name = 'p_b') AS DOUBLE) AS s_1,
        CAST(COLUMNS(LAMBDA fm_name : fm_name = 'p_c') AS DOUBLE) AS s_2
      FROM "preds"
    ) AS fm_1
  ) AS fm_2
), fm_cells AS (
  SELECT
    fm_g0,
    y_true,
    y_pred,
    COUNT(*) AS n_rows,
    COALESCE(SUM(sample_weight), 0) AS weight,
    COUNT(*) FILTER(WHERE
      y_true IS NULL OR NOT (
        y_true = 'a' OR y_true = 'b' OR y_true = 'c'
      )) AS invalid_class_y_true,
    COUNT(*) FILTER(WHERE
      y_pred IS NULL OR NOT (
        y_pred = 'a' OR y_pred = 'b' OR y_pred = 'c'
      )) AS invalid_class_y_pred,
    COUNT(*) FILTER(WHERE
      s_0 IS NULL
      OR NOT (
        NOT ISNAN(CAST(s_0 AS DOUBLE))
        AND CAST(s_0 AS DOUBLE) >= 0
        AND CAST(s_0 AS DOUBLE) <= 1
      )) AS invalid_probability_y_score_0,
    COUNT(*) FILTER(WHERE
      s_1 IS NULL
      OR NOT (
        NOT ISNAN(CAST(s_1 AS DOUBLE))
        AND CAST(s_1 AS DOUBLE) >= 0
        AND CAST(s_1 AS DOUBLE) <= 1
      )) AS invalid_probability_y_score_1,
    COUNT(*) FILTER(WHERE
      s_2 IS NULL
      OR NOT (
        NOT ISNAN(CAST(s_2 AS DOUBLE))
        AND CAST(s_2 AS DOUBLE) >= 0
        AND CAST(s_2 AS DOUBLE) <= 1
      )) AS invalid_probability_y_score_2,
    COUNT(*) FILTER(WHERE
      NOT (
        ABS(CAST(s_0 + s_1 + s_2 AS DOUBLE) - 1) <= 1e-05
      )) AS invalid_simplex_y_score
  FROM fm_input
  GROUP BY
    fm_g0,
    y_true,
    y_pred
), fm_groups AS (
  SELECT
    fm_g0,
    CAST(COALESCE(SUM(n_rows), 0) AS BIGINT) AS n_rows,
    CAST(COALESCE(SUM(invalid_class_y_true), 0) AS BIGINT) AS invalid_class_y_true,
    CAST(COALESCE(SUM(invalid_class_y_pred), 0) AS BIGINT) AS invalid_class_y_pred,
    CAST(COALESCE(SUM(invalid_probability_y_score_0), 0) AS BIGINT) AS invalid_probability_y_score_0,
    CAST(COALESCE(SUM(invalid_probability_y_score_1), 0) AS BIGINT) AS invalid_probability_y_score_1,
    CAST(COALESCE(SUM(invalid_probability_y_score_2), 0) AS BIGINT) AS invalid_probability_y_score_2,
    CAST(COALESCE(SUM(invalid_simplex_y_score), 0) AS BIGINT) AS invalid_simplex_y_score,
    COALESCE(SUM(weight), 0) AS total
  FROM fm_cells
  GROUP BY
    fm_g0
), fm_classes AS (
  SELECT
    fm_g0,
    class,
    tp,
    fp,
    fn,
    support,
    predicted,
    CAST(CASE
      WHEN class = 'a'
      THEN 0
      WHEN class = 'b'
      THEN 1
      WHEN class = 'c'
      THEN 2
      ELSE CAST(NULL AS BIGINT)
    END AS BIGINT) AS class_index,
    SUM(support) OVER (PARTITION BY fm_g0) AS total
  FROM (
    SELECT
      fm_g0,
      class,
      COALESCE(SUM(tp), 0) AS tp,
      COALESCE(SUM(fp), 0) AS fp,
      COALESCE(SUM(fn), 0) AS fn,
      COALESCE(SUM(support), 0) AS support,
      COALESCE(SUM(predicted), 0) AS predicted
    FROM (
      SELECT
        fm_g0,
        class,
        support,
        predicted,
        tp,
        fp,
        fn
      FROM (
        SELECT
          fm_g0,
          class,
          support,
          predicted,
          tp,
          fp,
          fn
        FROM (
          SELECT
            fm_g0,
            class,
            support,
            predicted,
            tp,
            fp,
            fn
          FROM (
            SELECT
              fm_g0,
              y_true AS class,
              weight AS support,
              CAST(0.0 AS DOUBLE) AS predicted,
              CASE
                WHEN y_true = y_pred OR y_true IS NULL AND y_pred IS NULL
                THEN weight
                ELSE CAST(0.0 AS DOUBLE)
              END AS tp,
              CAST(0.0 AS DOUBLE) AS fp,
              CASE
                WHEN y_true = y_pred OR y_true IS NULL AND y_pred IS NULL
                THEN CAST(0.0 AS DOUBLE)
                ELSE weight
              END AS fn
            FROM fm_cells
          ) AS fm_3
          UNION ALL
          SELECT
            fm_g0,
            class,
            support,
            predicted,
            tp,
            fp,
            fn
          FROM (
            SELECT
              fm_g0,
              y_pred AS class,
              CAST(0.0 AS DOUBLE) AS support,
              weight AS predicted,
              CAST(0.0 AS DOUBLE) AS tp,
              CASE
                WHEN y_true = y_pred OR y_true IS NULL AND y_pred IS NULL
                THEN CAST(0.0 AS DOUBLE)
                ELSE weight
              END AS fp,
              CAST(0.0 AS DOUBLE) AS fn
            FROM fm_cells
          ) AS fm_4
        ) AS fm_9
        UNION ALL
        SELECT
          fm_g0,
          class,
          support,
          predicted,
          tp,
          fp,
          fn
        FROM (
          SELECT
            fm_g0,
            class,
            support,
            predicted,
            tp,
            fp,
            fn
          FROM (
            SELECT
              fm_6.fm_g0,
              fm_7.class,
              fm_7.support,
              fm_7.predicted,
              fm_7.tp,
              fm_7.fp,
              fm_7.fn
            FROM (
              SELECT
                fm_g0
              FROM fm_groups
            ) AS fm_6
            CROSS JOIN (
              SELECT
                class,
                CAST(0.0 AS DOUBLE) AS support,
                CAST(0.0 AS DOUBLE) AS predicted,
                CAST(0.0 AS DOUBLE) AS tp,
                CAST(0.0 AS DOUBLE) AS fp,
                CAST(0.0 AS DOUBLE) AS fn
              FROM (
                SELECT
                  'a' AS class
                UNION ALL
                SELECT
                  'b' AS class
                UNION ALL
                SELECT
                  'c' AS class
              ) AS fm_5
            ) AS fm_7
          ) AS fm_8
        ) AS fm_10
      ) AS fm_11
      WHERE
        class = 'a' OR class = 'b' OR class = 'c'
    ) AS fm_12
    GROUP BY
      fm_g0,
      class
  ) AS fm_13
), fm_class_values AS (
  SELECT
    fm_g0,
    class,
    tp,
    fp,
    fn,
    support,
    predicted,
    class_index,
    total,
    CASE
      WHEN 0 > 0
      THEN CAST(NULL AS DOUBLE)
      WHEN tp + fp = 0
      THEN CAST(NULL AS DOUBLE)
      ELSE tp / (
        tp + fp
      )
    END AS precision_score,
    CASE
      WHEN 0 > 0
      THEN CAST(NULL AS DOUBLE)
      WHEN tp + fn = 0
      THEN CAST(NULL AS DOUBLE)
      ELSE tp / (
        tp + fn
      )
    END AS recall_score,
    CASE
      WHEN 0 > 0
      THEN CAST(NULL AS DOUBLE)
      WHEN 2 * tp + fn + fp = 0
      THEN CAST(NULL AS DOUBLE)
      ELSE 2 * tp / (
        2 * tp + fn + fp
      )
    END AS f1_score,
    CASE
      WHEN 0 > 0
      THEN CAST(NULL AS DOUBLE)
      WHEN tp + CASE
        WHEN CAST(1.0 AS DOUBLE) * CAST(1.0 AS DOUBLE) > 1
        THEN 1 / (
          1 + 1 / (
            CAST(1.0 AS DOUBLE) * CAST(1.0 AS DOUBLE)
          )
        )
        ELSE CAST(1.0 AS DOUBLE) * CAST(1.0 AS DOUBLE) / (
          1 + CAST(1.0 AS DOUBLE) * CAST(1.0 AS DOUBLE)
        )
      END * fn + (
        1 - CASE
          WHEN CAST(1.0 AS DOUBLE) * CAST(1.0 AS DOUBLE) > 1
          THEN 1 / (
            1 + 1 / (
              CAST(1.0 AS DOUBLE) * CAST(1.0 AS DOUBLE)
            )
          )
          ELSE CAST(1.0 AS DOUBLE) * CAST(1.0 AS DOUBLE) / (
            1 + CAST(1.0 AS DOUBLE) * CAST(1.0 AS DOUBLE)
          )
        END
      ) * fp = 0
      THEN CAST(NULL AS DOUBLE)
      ELSE tp / (
        tp + CASE
          WHEN CAST(1.0 AS DOUBLE) * CAST(1.0 AS DOUBLE) > 1
          THEN 1 / (
            1 + 1 / (
              CAST(1.0 AS DOUBLE) * CAST(1.0 AS DOUBLE)
            )
          )
          ELSE CAST(1.0 AS DOUBLE) * CAST(1.0 AS DOUBLE) / (
            1 + CAST(1.0 AS DOUBLE) * CAST(1.0 AS DOUBLE)
          )
        END * fn + (
          1 - CASE
            WHEN CAST(1.0 AS DOUBLE) * CAST(1.0 AS DOUBLE) > 1
            THEN 1 / (
              1 + 1 / (
                CAST(1.0 AS DOUBLE) * CAST(1.0 AS DOUBLE)
              )
            )
            ELSE CAST(1.0 AS DOUBLE) * CAST(1.0 AS DOUBLE) / (
              1 + CAST(1.0 AS DOUBLE) * CAST(1.0 AS DOUBLE)
            )
          END
        ) * fp
      )
    END AS fbeta_score,
    CASE
      WHEN 0 > 0
      THEN CAST(NULL AS DOUBLE)
      WHEN tp + fp + fn = 0
      THEN CAST(NULL AS DOUBLE)
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
        CASE WHEN total = 0 THEN CAST(NULL AS DOUBLE) ELSE support / total END * CASE WHEN total = 0 THEN CAST(NULL AS DOUBLE) ELSE predicted / total END
      ),
      0
    ) AS true_dot_pred,
    COALESCE(
      SUM(
        CASE WHEN total = 0 THEN CAST(NULL AS DOUBLE) ELSE support / total END * CASE WHEN total = 0 THEN CAST(NULL AS DOUBLE) ELSE support / total END
      ),
      0
    ) AS true_dot_true,
    COALESCE(
      SUM(
        CASE WHEN total = 0 THEN CAST(NULL AS DOUBLE) ELSE predicted / total END * CASE WHEN total = 0 THEN CAST(NULL AS DOUBLE) ELSE predicted / total END
      ),
      0
    ) AS pred_dot_pred,
    COUNT(*) FILTER(WHERE
      support > 0) AS n_true_classes,
    COUNT(*) FILTER(WHERE
      predicted > 0) AS n_pred_classes,
    CASE
      WHEN CAST(COUNT(*) FILTER(WHERE
        NOT (
          CASE WHEN support > 0 THEN tp / support ELSE CAST(NULL AS DOUBLE) END IS NULL
        )) AS DOUBLE) = 0
      THEN CAST(NULL AS DOUBLE)
      ELSE COALESCE(SUM(CASE WHEN support > 0 THEN tp / support ELSE CAST(NULL AS DOUBLE) END), 0) / CAST(COUNT(*) FILTER(WHERE
        NOT (
          CASE WHEN support > 0 THEN tp / support ELSE CAST(NULL AS DOUBLE) END IS NULL
        )) AS DOUBLE)
    END AS mean_recall,
    CASE
      WHEN CAST(COUNT(*) FILTER(WHERE
        NOT (
          COALESCE(f1_score, CAST(NULL AS DOUBLE)) IS NULL
        )) AS DOUBLE) = 0
      THEN CAST(NULL AS DOUBLE)
      ELSE COALESCE(SUM(COALESCE(f1_score, CAST(NULL AS DOUBLE))), 0) / CAST(COUNT(*) FILTER(WHERE
        NOT (
          COALESCE(f1_score, CAST(NULL AS DOUBLE)) IS NULL
        )) AS DOUBLE)
    END AS value_f1_macro
  FROM fm_class_values
  GROUP BY
    fm_g0
), fm_kappa_observed AS (
  SELECT
    fm_g0,
    COALESCE(SUM(weight * CAST(t <> p AS DOUBLE)), 0) AS observed_none
  FROM (
    SELECT
      fm_16.fm_g0,
      fm_16.y_true,
      fm_16.y_pred,
      fm_16.n_rows,
      fm_16.weight,
      fm_16.invalid_class_y_true,
      fm_16.invalid_class_y_pred,
      fm_16.invalid_probability_y_score_0,
      fm_16.invalid_probability_y_score_1,
      fm_16.invalid_probability_y_score_2,
      fm_16.invalid_simplex_y_score,
      fm_16.t,
      fm_17.p
    FROM (
      SELECT
        fm_14.fm_g0,
        fm_14.y_true,
        fm_14.y_pred,
        fm_14.n_rows,
        fm_14.weight,
        fm_14.invalid_class_y_true,
        fm_14.invalid_class_y_pred,
        fm_14.invalid_probability_y_score_0,
        fm_14.invalid_probability_y_score_1,
        fm_14.invalid_probability_y_score_2,
        fm_14.invalid_simplex_y_score,
        fm_15.t
      FROM fm_cells AS fm_14
      INNER JOIN (
        SELECT
          fm_g0,
          class AS y_true,
          class_index AS t
        FROM fm_classes
      ) AS fm_15
        ON fm_14.fm_g0 IS NOT DISTINCT FROM fm_15.fm_g0
        AND fm_14.y_true IS NOT DISTINCT FROM fm_15.y_true
    ) AS fm_16
    INNER JOIN (
      SELECT
        fm_g0,
        class AS y_pred,
        class_index AS p
      FROM fm_classes
    ) AS fm_17
      ON fm_16.fm_g0 IS NOT DISTINCT FROM fm_17.fm_g0
      AND fm_16.y_pred IS NOT DISTINCT FROM fm_17.y_pred
  ) AS fm_20
  GROUP BY
    fm_g0
), fm_kappa_expected AS (
  SELECT
    fm_g0,
    COALESCE(
      SUM(
        support * CASE WHEN total = 0 THEN CAST(NULL AS DOUBLE) ELSE predicted / total END * CAST(i <> j AS DOUBLE)
      ),
      0
    ) AS expected_none
  FROM (
    SELECT
      fm_18.fm_g0,
      fm_18.i,
      fm_18.support,
      fm_18.total,
      fm_19.j,
      fm_19.predicted
    FROM (
      SELECT
        fm_g0,
        class_index AS i,
        support,
        total
      FROM fm_classes
    ) AS fm_18
    INNER JOIN (
      SELECT
        fm_g0,
        class_index AS j,
        predicted
      FROM fm_classes
    ) AS fm_19
      ON fm_18.fm_g0 IS NOT DISTINCT FROM fm_19.fm_g0
  ) AS fm_21
  GROUP BY
    fm_g0
), fm_rank_input AS (
  SELECT
    fm_g0,
    true_index,
    sample_weight,
    column_index,
    y_score,
    is_pos
  FROM (
    SELECT
      fm_g0,
      true_index,
      sample_weight,
      column_index,
      y_score,
      is_pos
    FROM (
      SELECT
        fm_g0,
        true_index,
        sample_weight,
        0 AS column_index,
        s_0 AS y_score,
        true_index = 0 AS is_pos
      FROM fm_input
    ) AS fm_22
    UNION ALL
    SELECT
      fm_g0,
      true_index,
      sample_weight,
      column_index,
      y_score,
      is_pos
    FROM (
      SELECT
        fm_g0,
        true_index,
        sample_weight,
        1 AS column_index,
        s_1 AS y_score,
        true_index = 1 AS is_pos
      FROM fm_input
    ) AS fm_23
  ) AS fm_24
  UNION ALL
  SELECT
    fm_g0,
    true_index,
    sample_weight,
    column_index,
    y_score,
    is_pos
  FROM (
    SELECT
      fm_g0,
      true_index,
      sample_weight,
      2 AS column_index,
      s_2 AS y_score,
      true_index = 2 AS is_pos
    FROM fm_input
  ) AS fm_25
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
      sample_weight * CAST(is_pos = TRUE AS DOUBLE) AS pw,
      sample_weight * CAST(is_pos = FALSE AS DOUBLE) AS nw
    FROM fm_rank_input
  ) AS fm_26
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
), fm_rank_values AS (
  SELECT
    fm_g0,
    column_index,
    auc_sum,
    ap_sum,
    sum_pos,
    sum_neg,
    CASE
      WHEN 0 > 0
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
    CASE WHEN 0 > 0 OR sum_pos = 0 THEN CAST(NULL AS DOUBLE) ELSE ap_sum / sum_pos END AS average_precision_score
  FROM (
    SELECT
      fm_g0,
      column_index,
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
      COALESCE(
        SUM(
          CASE WHEN pw > 0 THEN pw * (
            tp / (
              tp + fp
            )
          ) ELSE CAST(0.0 AS DOUBLE) END
        ),
        0
      ) AS ap_sum,
      COALESCE(SUM(pw), 0) AS sum_pos,
      COALESCE(SUM(nw), 0) AS sum_neg
    FROM fm_rank_curve
    GROUP BY
      fm_g0,
      column_index
  ) AS fm_27
), fm_rank_summary AS (
  SELECT
    fm_g0,
    COUNT(*) AS n_rank_classes,
    CASE
      WHEN CAST(COUNT(*) FILTER(WHERE
        NOT (
          COALESCE(roc_auc_score, CAST(NULL AS DOUBLE)) IS NULL
        )) AS DOUBLE) = 0
      THEN CAST(NULL AS DOUBLE)
      ELSE COALESCE(SUM(COALESCE(roc_auc_score, CAST(NULL AS DOUBLE))), 0) / CAST(COUNT(*) FILTER(WHERE
        NOT (
          COALESCE(roc_auc_score, CAST(NULL AS DOUBLE)) IS NULL
        )) AS DOUBLE)
    END AS value_roc_auc_ovr
  FROM fm_rank_values
  GROUP BY
    fm_g0
), fm_summaries AS (
  SELECT
    fm_34.fm_g0,
    fm_34.n_rows,
    fm_34.invalid_class_y_true,
    fm_34.invalid_class_y_pred,
    fm_34.invalid_probability_y_score_0,
    fm_34.invalid_probability_y_score_1,
    fm_34.invalid_probability_y_score_2,
    fm_34.invalid_simplex_y_score,
    fm_34.total,
    fm_34.tp,
    fm_34.fp,
    fm_34.fn,
    fm_34.true_dot_pred,
    fm_34.true_dot_true,
    fm_34.pred_dot_pred,
    fm_34.n_true_classes,
    fm_34.n_pred_classes,
    fm_34.mean_recall,
    fm_34.value_f1_macro,
    fm_34.observed_none,
    fm_34.expected_none,
    fm_35.n_rank_classes,
    fm_35.value_roc_auc_ovr
  FROM (
    SELECT
      fm_32.fm_g0,
      fm_32.n_rows,
      fm_32.invalid_class_y_true,
      fm_32.invalid_class_y_pred,
      fm_32.invalid_probability_y_score_0,
      fm_32.invalid_probability_y_score_1,
      fm_32.invalid_probability_y_score_2,
      fm_32.invalid_simplex_y_score,
      fm_32.total,
      fm_32.tp,
      fm_32.fp,
      fm_32.fn,
      fm_32.true_dot_pred,
      fm_32.true_dot_true,
      fm_32.pred_dot_pred,
      fm_32.n_true_classes,
      fm_32.n_pred_classes,
      fm_32.mean_recall,
      fm_32.value_f1_macro,
      fm_32.observed_none,
      fm_33.expected_none
    FROM (
      SELECT
        fm_30.fm_g0,
        fm_30.n_rows,
        fm_30.invalid_class_y_true,
        fm_30.invalid_class_y_pred,
        fm_30.invalid_probability_y_score_0,
        fm_30.invalid_probability_y_score_1,
        fm_30.invalid_probability_y_score_2,
        fm_30.invalid_simplex_y_score,
        fm_30.total,
        fm_30.tp,
        fm_30.fp,
        fm_30.fn,
        fm_30.true_dot_pred,
        fm_30.true_dot_true,
        fm_30.pred_dot_pred,
        fm_30.n_true_classes,
        fm_30.n_pred_classes,
        fm_30.mean_recall,
        fm_30.value_f1_macro,
        fm_31.observed_none
      FROM (
        SELECT
          fm_28.fm_g0,
          fm_28.n_rows,
          fm_28.invalid_class_y_true,
          fm_28.invalid_class_y_pred,
          fm_28.invalid_probability_y_score_0,
          fm_28.invalid_probability_y_score_1,
          fm_28.invalid_probability_y_score_2,
          fm_28.invalid_simplex_y_score,
          fm_28.total,
          fm_29.tp,
          fm_29.fp,
          fm_29.fn,
          fm_29.true_dot_pred,
          fm_29.true_dot_true,
          fm_29.pred_dot_pred,
          fm_29.n_true_classes,
          fm_29.n_pred_classes,
          fm_29.mean_recall,
          fm_29.value_f1_macro
        FROM fm_groups AS fm_28
        LEFT JOIN fm_class_summary AS fm_29
          ON fm_28.fm_g0 IS NOT DISTINCT FROM fm_29.fm_g0
      ) AS fm_30
      LEFT JOIN fm_kappa_observed AS fm_31
        ON fm_30.fm_g0 IS NOT DISTINCT FROM fm_31.fm_g0
    ) AS fm_32
    LEFT JOIN fm_kappa_expected AS fm_33
      ON fm_32.fm_g0 IS NOT DISTINCT FROM fm_33.fm_g0
  ) AS fm_34
  LEFT JOIN fm_rank_summary AS fm_35
    ON fm_34.fm_g0 IS NOT DISTINCT FROM fm_35.fm_g0
), fm_metrics AS (
  SELECT
    fm_g0,
    CAST(n_rows AS BIGINT) AS n_rows,
    CAST(CASE
      WHEN ISFINITE(
        CASE
          WHEN invalid_class_y_true + invalid_class_y_pred + invalid_probability_y_score_0 + invalid_probability_y_score_1 + invalid_probability_y_score_2 + invalid_simplex_y_score > 0
          THEN CAST(NULL AS DOUBLE)
          ELSE value_f1_macro
        END
      )
      THEN LEAST(
        GREATEST(
          CASE
            WHEN invalid_class_y_true + invalid_class_y_pred + invalid_probability_y_score_0 + invalid_probability_y_score_1 + invalid_probability_y_score_2 + invalid_simplex_y_score > 0
            THEN CAST(NULL AS DOUBLE)
            ELSE value_f1_macro
          END,
          CAST(0.0 AS DOUBLE)
        ),
        CAST(1.0 AS DOUBLE)
      )
      ELSE CAST(NULL AS DOUBLE)
    END AS DOUBLE) AS f1_macro,
    CAST(CASE
      WHEN ISFINITE(
        CASE
          WHEN invalid_class_y_true + invalid_class_y_pred + invalid_probability_y_score_0 + invalid_probability_y_score_1 + invalid_probability_y_score_2 + invalid_simplex_y_score > 0
          OR expected_none IS NULL
          OR expected_none = 0
          THEN CAST(NULL AS DOUBLE)
          ELSE 1 - observed_none / expected_none
        END
      )
      THEN LEAST(
        GREATEST(
          CASE
            WHEN invalid_class_y_true + invalid_class_y_pred + invalid_probability_y_score_0 + invalid_probability_y_score_1 + invalid_probability_y_score_2 + invalid_simplex_y_score > 0
            OR expected_none IS NULL
            OR expected_none = 0
            THEN CAST(NULL AS DOUBLE)
            ELSE 1 - observed_none / expected_none
          END,
          CAST(-1.0 AS DOUBLE)
        ),
        CAST(1.0 AS DOUBLE)
      )
      ELSE CAST(NULL AS DOUBLE)
    END AS DOUBLE) AS cohen_kappa_score,
    CAST(CASE
      WHEN ISFINITE(
        CASE
          WHEN invalid_class_y_true + invalid_class_y_pred + invalid_probability_y_score_0 + invalid_probability_y_score_1 + invalid_probability_y_score_2 + invalid_simplex_y_score > 0
          THEN CAST(NULL AS DOUBLE)
          ELSE value_roc_auc_ovr
        END
      )
      THEN LEAST(
        GREATEST(
          CASE
            WHEN invalid_class_y_true + invalid_class_y_pred + invalid_probability_y_score_0 + invalid_probability_y_score_1 + invalid_probability_y_score_2 + invalid_simplex_y_score > 0
            THEN CAST(NULL AS DOUBLE)
            ELSE value_roc_auc_ovr
          END,
          CAST(0.0 AS DOUBLE)
        ),
        CAST(1.0 AS DOUBLE)
      )
      ELSE CAST(NULL AS DOUBLE)
    END AS DOUBLE) AS roc_auc_ovr
  FROM fm_summaries
)
SELECT
  *
FROM (
  SELECT
    fm_g0 AS "segment",
    n_rows AS n_rows,
    f1_macro AS f1_macro,
    cohen_kappa_score AS cohen_kappa_score,
    roc_auc_ovr AS roc_auc_ovr
  FROM fm_metrics
) AS fm_36
ORDER BY
  "segment"
