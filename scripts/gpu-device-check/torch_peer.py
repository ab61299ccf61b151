"""The bench/gpu/cell.dml, gemm.dml and spmv.dml computations in PyTorch on
the same GPU (the device machines have it), for the ratio: run by run.sh
when torch is there. Prints milliseconds for 20 passes, as cell.dml does,
for the ten chained products of gemm.dml (cuBLAS's DGEMM, called by torch)
for spmv.dml's 20 products of a CSR matrix with 20 entries per row
(torch.sparse_csr's SpMV, which calls cuSPARSE), and for l2svm.dml's 20
line-search steps (each of torch's element-wise ops a kernel of its
own)."""
import time

import torch

n = 4000
g = torch.Generator(device="cuda").manual_seed(1)
X, Y, Z = (torch.rand(n, n, dtype=torch.float64, device="cuda", generator=g)
           for _ in range(3))
for _ in range(3):
    (X * Y * Z + 1).sum().item()
torch.cuda.synchronize()
start = time.perf_counter()
s = 0.0
for i in range(1, 21):
    s += (X * Y * Z + i).sum().item()
ms = (time.perf_counter() - start) * 1e3
gbs = 20 * 3 * n * n * 8 / ms / 1e6
print(f"  torch: cell {ms:.1f} ms ({gbs:.0f} GB/s of inputs read)")
start = time.perf_counter()
r = 0.0
for i in range(1, 21):
    r += torch.sum((X * i).sum(dim=1) * Y.amax(dim=1)).item()
print(f"  torch: rows {(time.perf_counter() - start) * 1e3:.1f} ms")

n = 4096
A = torch.rand(n, n, dtype=torch.float64, device="cuda", generator=g)
B = torch.rand(n, n, dtype=torch.float64, device="cuda", generator=g)
(A @ B).sum().item()
torch.cuda.synchronize()
start = time.perf_counter()
for _ in range(10):
    B = (A @ B) / n
B.sum().item()
ms = (time.perf_counter() - start) * 1e3
print(f"  torch: gemm {ms:.1f} ms, {10 * 2 * n ** 3 / (ms * 1e6):.0f} GFLOP/s")

n, m, k = 200000, 50000, 20
rows = torch.arange(n, device="cuda").repeat_interleave(k)
cols = torch.randint(0, m, (n * k,), device="cuda", generator=g)
values = torch.rand(n * k, dtype=torch.float64, device="cuda", generator=g)
S = torch.sparse_coo_tensor(torch.stack([rows, cols]), values * 2 - 1,
                            (n, m)).coalesce().to_sparse_csr()
v = torch.rand(m, 1, dtype=torch.float64, device="cuda", generator=g)
(S @ v).sum().item()
torch.cuda.synchronize()
start = time.perf_counter()
s = 0.0
for i in range(1, 21):
    y = S @ (v + i)
    s += (y * y).sum().item()
ms = (time.perf_counter() - start) * 1e3
print(f"  torch: spmv {ms:.1f} ms ({S._nnz()} entries)")

n = 16000000
Xw = torch.rand(n, 1, dtype=torch.float64, device="cuda", generator=g) * 2 - 1
Xd = torch.rand(n, 1, dtype=torch.float64, device="cuda", generator=g) * 2 - 1
Y = (torch.rand(n, 1, dtype=torch.float64, device="cuda", generator=g) > 0.5
     ).double() * 2 - 1
torch.cuda.synchronize()
start = time.perf_counter()
s = 0.0
for i in range(1, 21):
    out = 1 - Y * (Xw + i / 20 * Xd)
    sv = (out > 0).double()
    out = out * sv
    s += ((out * Y * Xd).sum() / (Xd * sv * Xd).sum()).item()
ms = (time.perf_counter() - start) * 1e3
print(f"  torch: l2svm {ms:.1f} ms ({20 * 3 * n * 8 / ms / 1e6:.0f} GB/s of the"
      " vectors read)")
