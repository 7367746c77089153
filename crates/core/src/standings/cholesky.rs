//! Dense symmetric positive definite matrices as the ratings' fit needs them: the Cholesky
//! factor L (with L Lᵀ = m) to solve for a Newton step, and the inverse factor L⁻¹ for the
//! covariance, whose entries are dot products of its columns (C = L⁻ᵀ L⁻¹), so that the
//! inverse itself is never formed.
//!
//! A field of a thousand players makes 1000×1000 matrices: each is one row-major allocation,
//! the inner loops run along rows (dot products and sums of scaled rows the compiler
//! vectorises, with several accumulators), and rows are taken in blocks so that a row loaded
//! from memory serves the whole block.

use std::ops::{Index, IndexMut};

/// Rows handled together: the block's rows (8 KiB each for a thousand players) stay in the
/// core's cache while every earlier row streams past them once.
const BLOCK: usize = 32;

/// A square matrix, row by row.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Matrix {
    size: usize,
    values: Vec<f64>,
}

impl Matrix {
    pub(super) fn zeros(size: usize) -> Matrix {
        Matrix {
            size,
            values: vec![0.0; size * size],
        }
    }

    pub(super) fn size(&self) -> usize {
        self.size
    }

    fn row(&self, i: usize) -> &[f64] {
        &self.values[i * self.size..(i + 1) * self.size]
    }

    fn row_mut(&mut self, i: usize) -> &mut [f64] {
        &mut self.values[i * self.size..(i + 1) * self.size]
    }

    /// Every row before row `i`, read-only, and row `i`.
    fn split_at_row(&mut self, i: usize) -> (&[f64], &mut [f64]) {
        let (before, rest) = self.values.split_at_mut(i * self.size);
        (before, &mut rest[..self.size])
    }

    /// Adds `value` to every entry.
    pub(super) fn add_to_all(&mut self, value: f64) {
        for entry in &mut self.values {
            *entry += value;
        }
    }
}

impl Index<(usize, usize)> for Matrix {
    type Output = f64;
    fn index(&self, (i, j): (usize, usize)) -> &f64 {
        &self.values[i * self.size + j]
    }
}

impl IndexMut<(usize, usize)> for Matrix {
    fn index_mut(&mut self, (i, j): (usize, usize)) -> &mut f64 {
        &mut self.values[i * self.size + j]
    }
}

/// Σ aᵢbᵢ over the shorter slice, in eight interleaved sums: independent additions the
/// processor can overlap and the compiler can pack into vector instructions.
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let length = a.len().min(b.len());
    let (a, b) = (&a[..length], &b[..length]);
    let mut sums = [0.0; 8];
    let (a_chunks, b_chunks) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f64 = a_chunks
        .remainder()
        .iter()
        .zip(b_chunks.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a_chunks.zip(b_chunks) {
        for k in 0..8 {
            sums[k] += x[k] * y[k];
        }
    }
    // Added as pairs of lanes, as the vector registers hold them.
    let lanes = [
        (sums[0] + sums[4]) + (sums[2] + sums[6]),
        (sums[1] + sums[5]) + (sums[3] + sums[7]),
    ];
    lanes[0] + lanes[1] + tail
}

/// `target += factor × source`, entry by entry over the shorter slice.
fn add_scaled(target: &mut [f64], factor: f64, source: &[f64]) {
    for (t, s) in target.iter_mut().zip(source) {
        *t += factor * s;
    }
}

/// The Cholesky factor L of a symmetric positive definite matrix, in the lower triangle (the
/// upper one is left as it was and never read).
#[derive(Clone, Debug)]
pub(super) struct Cholesky {
    lower: Matrix,
}

impl Cholesky {
    /// Factors `m` in place, reading its lower triangle; None unless it is positive definite
    /// (to rounding).
    pub(super) fn new(mut m: Matrix) -> Option<Cholesky> {
        let n = m.size;
        for start in (0..n).step_by(BLOCK) {
            let end = (start + BLOCK).min(n);
            for j in 0..end {
                for i in start.max(j)..end {
                    let (before, row_i) = m.split_at_row(i);
                    let value = if i == j {
                        let d = row_i[i] - dot(&row_i[..i], &row_i[..i]);
                        if d <= 0.0 || !d.is_finite() {
                            return None;
                        }
                        d.sqrt()
                    } else {
                        let row_j = &before[(j * n)..=(j * n + j)];
                        (row_i[j] - dot(&row_i[..j], &row_j[..j])) / row_j[j]
                    };
                    row_i[j] = value;
                }
            }
        }
        Some(Cholesky { lower: m })
    }

    /// Solves L Lᵀ x = b: forward along L's rows, then backward subtracting each solved
    /// unknown's multiple of a row from the ones above it (Lᵀ's column is L's row).
    pub(super) fn solve(&self, b: &[f64]) -> Vec<f64> {
        let l = &self.lower;
        let mut x = b.to_vec();
        for i in 0..l.size {
            let row = l.row(i);
            x[i] = (x[i] - dot(&row[..i], &x[..i])) / row[i];
        }
        for i in (0..l.size).rev() {
            let row = l.row(i);
            x[i] /= row[i];
            let (above, rest) = x.split_at_mut(i);
            add_scaled(above, -rest[0], &row[..i]);
        }
        x
    }

    /// L⁻¹, in place of L: row k of L⁻¹ is (e_k − Σ_{j<k} L_kj (row j of L⁻¹)) / L_kk, each row
    /// needing the earlier rows of the inverse and only its own row of L.
    pub(super) fn into_inverse(self) -> InverseFactor {
        let mut m = self.lower;
        let n = m.size;
        let mut block = vec![0.0; BLOCK.min(n) * n];
        for start in (0..n).step_by(BLOCK) {
            let end = (start + BLOCK).min(n);
            let rows = &mut block[..(end - start) * n];
            rows.fill(0.0);
            for (k, row) in (start..end).zip(rows.chunks_exact_mut(n)) {
                row[k] = 1.0;
            }
            // The rows of the inverse before the block, each read once for all of it.
            for j in 0..start {
                let inverse_j = &m.row(j)[..=j];
                for (k, row) in (start..end).zip(rows.chunks_exact_mut(n)) {
                    add_scaled(&mut row[..=j], -m[(k, j)], inverse_j);
                }
            }
            // Within the block, each row is finished before the next ones use it; a row of L
            // is overwritten only once the block no longer needs it.
            for j in start..end {
                let (done, later) = rows.split_at_mut((j - start + 1) * n);
                let inverse_j = &mut done[(j - start) * n..];
                let diagonal = m[(j, j)];
                for value in &mut inverse_j[..=j] {
                    *value /= diagonal;
                }
                for (k, row) in (j + 1..end).zip(later.chunks_exact_mut(n)) {
                    add_scaled(&mut row[..=j], -m[(k, j)], &inverse_j[..=j]);
                }
                m.row_mut(j).copy_from_slice(inverse_j);
            }
        }
        InverseFactor { lower: m }
    }
}

/// M = L⁻¹ (lower triangular) for a matrix m = L Lᵀ: m⁻¹ = Mᵀ M, so its entry (a, b) is the dot
/// product of M's columns a and b.
#[derive(Clone, Debug)]
pub(super) struct InverseFactor {
    lower: Matrix,
}

impl InverseFactor {
    /// The diagonal of m⁻¹: the squared length of each column of M.
    pub(super) fn diagonal(&self) -> Vec<f64> {
        let m = &self.lower;
        let mut diagonal = vec![0.0; m.size];
        for k in 0..m.size {
            for (d, value) in diagonal.iter_mut().zip(&m.row(k)[..=k]) {
                *d += value * value;
            }
        }
        diagonal
    }

    /// m⁻¹ x, as Mᵀ (M x).
    pub(super) fn times(&self, x: &[f64]) -> Vec<f64> {
        let m = &self.lower;
        let mut product = vec![0.0; m.size];
        for k in 0..m.size {
            let row = &m.row(k)[..=k];
            add_scaled(&mut product, dot(row, x), row);
        }
        product
    }

    /// (e_a − e_b)ᵀ m⁻¹ (e_a − e_b): the squared length of M's column a minus its column b
    /// (the variance of x_a − x_b when m⁻¹ is the covariance of x).
    pub(super) fn difference_variance(&self, a: usize, b: usize) -> f64 {
        let m = &self.lower;
        (a.min(b)..m.size)
            .map(|k| {
                let difference = m[(k, a)] - m[(k, b)];
                difference * difference
            })
            .sum()
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The inverse by Gauss-Jordan elimination with partial pivoting: the plain computation the
    /// factors are checked against.
    pub(crate) fn plain_inverse(m: &[Vec<f64>]) -> Vec<Vec<f64>> {
        let n = m.len();
        let mut left = m.to_vec();
        let mut right: Vec<Vec<f64>> = (0..n)
            .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
            .collect();
        for column in 0..n {
            let pivot = (column..n)
                .max_by(|&a, &b| left[a][column].abs().total_cmp(&left[b][column].abs()))
                .unwrap();
            left.swap(column, pivot);
            right.swap(column, pivot);
            let scale = left[column][column];
            for j in 0..n {
                left[column][j] /= scale;
                right[column][j] /= scale;
            }
            for i in (0..n).filter(|&i| i != column) {
                let factor = left[i][column];
                for j in 0..n {
                    left[i][j] -= factor * left[column][j];
                    right[i][j] -= factor * right[column][j];
                }
            }
        }
        right
    }

    /// A random symmetric positive definite matrix (diagonally dominant), as rows and as a
    /// [`Matrix`].
    fn random_matrix(n: usize, seed: u64) -> (Vec<Vec<f64>>, Matrix) {
        let mut rng = referee_rules::seeded::SeededRng::seed_from_u64(seed);
        let mut matrix = Matrix::zeros(n);
        for i in 0..n {
            for j in 0..i {
                let value: f64 = rng.gen_range(-1.0..1.0);
                matrix[(i, j)] = value;
                matrix[(j, i)] = value;
            }
        }
        for i in 0..n {
            let off_diagonal: f64 = matrix.row(i).iter().map(|v| v.abs()).sum();
            matrix[(i, i)] = off_diagonal + rng.gen_range(0.1..2.0);
        }
        let rows = (0..n).map(|i| matrix.row(i).to_vec()).collect();
        (rows, matrix)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * (1.0 + a.abs().max(b.abs()))
    }

    /// Sizes below, at and across the block size, so that every path of the blocked loops runs.
    #[test]
    fn factors_solve_and_invert_as_the_plain_computation_does() {
        for (n, seed) in [
            (1, 1),
            (3, 2),
            (BLOCK, 3),
            (BLOCK + 1, 4),
            (2 * BLOCK + 7, 5),
        ] {
            let (rows, matrix) = random_matrix(n, seed);
            let inverse = plain_inverse(&rows);
            let factor = Cholesky::new(matrix).unwrap();
            let l = &factor.lower;
            for i in 0..n {
                for j in 0..=i {
                    let product: f64 = (0..=j).map(|k| l[(i, k)] * l[(j, k)]).sum();
                    assert!(close(product, rows[i][j]), "n {n}: (L Lᵀ)[{i}][{j}]");
                }
            }
            let b: Vec<f64> = (0..n).map(|i| i as f64 - 3.5).collect();
            let x = factor.solve(&b);
            for (i, row) in inverse.iter().enumerate() {
                let expected: f64 = row.iter().zip(&b).map(|(c, b)| c * b).sum();
                assert!(close(x[i], expected), "n {n}: solution {i}");
            }
            let factor = factor.into_inverse();
            let diagonal = factor.diagonal();
            let product = factor.times(&b);
            for i in 0..n {
                assert!(close(diagonal[i], inverse[i][i]), "n {n}: diagonal {i}");
                assert!(close(product[i], x[i]), "n {n}: product {i}");
                for j in 0..n {
                    let expected = inverse[i][i] + inverse[j][j] - 2.0 * inverse[i][j];
                    let variance = factor.difference_variance(i, j);
                    assert!(close(variance, expected), "n {n}: difference {i} {j}");
                }
            }
        }
    }

    #[test]
    fn a_matrix_that_is_not_positive_definite_has_no_factor() {
        let mut m = Matrix::zeros(2);
        m[(0, 0)] = 1.0;
        m[(1, 0)] = 2.0;
        m[(1, 1)] = 1.0;
        assert!(Cholesky::new(m).is_none());
        let mut m = Matrix::zeros(BLOCK + 3);
        m[(0, 0)] = f64::NAN;
        assert!(Cholesky::new(m).is_none());
    }
}
