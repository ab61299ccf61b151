//===- DataDependentTest.cpp - removeEmpty, table, order ------------------===//

#include "AMLS/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <vector>

namespace {
struct Dense {
  Dense(int64_t rows, int64_t cols, std::vector<double> values = {})
      : data(values.empty() ? std::vector<double>(rows * cols) : values),
        desc{data.data(), data.data(), 0, {rows, cols}, {cols, 1}} {}
  std::vector<double> data;
  AmlsMatrixF64 desc;
};
} // namespace

TEST(DataDependent, RemoveEmptyRowsAndColumns) {
  Dense x(3, 3, {0, 0, 0, 1, 0, 2, 0, 0, 3});
  EXPECT_EQ(_mlir_ciface_amls_rt_count_nonempty(&x.desc, &x.desc, 0, 0), 2);
  Dense rows(2, 3);
  _mlir_ciface_amls_rt_remove_empty(&x.desc, &x.desc, &rows.desc, 0, 0);
  EXPECT_EQ(rows.data, (std::vector<double>{1, 0, 2, 0, 0, 3}));

  EXPECT_EQ(_mlir_ciface_amls_rt_count_nonempty(&x.desc, &x.desc, 1, 0), 2);
  Dense cols(3, 2);
  _mlir_ciface_amls_rt_remove_empty(&x.desc, &x.desc, &cols.desc, 1, 0);
  EXPECT_EQ(cols.data, (std::vector<double>{0, 0, 1, 2, 0, 3}));

  // A selector keeps exactly the selected rows, empty or not.
  Dense select(3, 1, {1, 0, 1});
  EXPECT_EQ(_mlir_ciface_amls_rt_count_nonempty(&x.desc, &select.desc, 0, 1),
            2);
  Dense selected(2, 3);
  _mlir_ciface_amls_rt_remove_empty(&x.desc, &select.desc, &selected.desc, 0,
                                    1);
  EXPECT_EQ(selected.data, (std::vector<double>{0, 0, 0, 0, 0, 3}));
}

TEST(DataDependent, TableCountsAndWeighs) {
  Dense a(4, 1, {1, 2, 2, 3}), b(4, 1, {2, 1, 1, 2}), w(4, 1, {0.5, 1, 2, 4});
  EXPECT_EQ(_mlir_ciface_amls_rt_max_category(&a.desc), 3);
  EXPECT_EQ(_mlir_ciface_amls_rt_max_category(&b.desc), 2);
  Dense counts(3, 2);
  _mlir_ciface_amls_rt_table(&a.desc, &b.desc, &w.desc, &counts.desc, 0);
  EXPECT_EQ(counts.data, (std::vector<double>{0, 1, 2, 0, 0, 1}));
  Dense weighted(3, 2);
  _mlir_ciface_amls_rt_table(&a.desc, &b.desc, &w.desc, &weighted.desc, 1);
  EXPECT_EQ(weighted.data, (std::vector<double>{0, 0.5, 3, 0, 0, 4}));
  // A smaller given size drops the pairs outside it.
  Dense clipped(2, 2);
  _mlir_ciface_amls_rt_table(&a.desc, &b.desc, &w.desc, &clipped.desc, 0);
  EXPECT_EQ(clipped.data, (std::vector<double>{0, 1, 2, 0}));
}

TEST(DataDependent, OrderIsStable) {
  Dense x(4, 2, {3, 1, 1, 2, 3, 3, 2, 4});
  Dense sorted(4, 2);
  _mlir_ciface_amls_rt_order(&x.desc, &sorted.desc, 0, 0, 0);
  EXPECT_EQ(sorted.data, (std::vector<double>{1, 2, 2, 4, 3, 1, 3, 3}));
  Dense positions(4, 1);
  _mlir_ciface_amls_rt_order(&x.desc, &positions.desc, 0, 1, 1);
  // Decreasing, ties in their original order: rows 1 and 3 (value 3) first.
  EXPECT_EQ(positions.data, (std::vector<double>{1, 3, 4, 2}));
}

TEST(DataDependentDeathTest, RemoveEmptyRejectsAnUnknownMargin) {
  Dense x(2, 2, {1, 0, 0, 0}), out(1, 2);
  EXPECT_EXIT(_mlir_ciface_amls_rt_count_nonempty(&x.desc, &x.desc, 2, 0),
              ::testing::ExitedWithCode(1), "removeEmpty: unknown margin 2");
  EXPECT_EXIT(
      _mlir_ciface_amls_rt_remove_empty(&x.desc, &x.desc, &out.desc, -1, 0),
      ::testing::ExitedWithCode(1), "removeEmpty: unknown margin -1");
}

TEST(DataDependentDeathTest, TableRejectsNonIntegerIds) {
  Dense a(2, 1, {1, 2.5}), b(2, 1, {1, 1});
  EXPECT_EXIT(_mlir_ciface_amls_rt_max_category(&a.desc),
              ::testing::ExitedWithCode(1),
              "category ids must be positive integers, found 2.5.* in row 2");
}
