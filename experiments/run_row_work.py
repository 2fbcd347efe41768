"""Replication that buys compute: the c ranks of a process row sharing its minibatches
(each multiplying by 1/c of A's blocks, then reducing) against splitting them (each sampling
its own, multiplying by every block). Partitioned GraphSAGE and LADIES on R-MAT, p = 4, 8 at
c = 1 and 2: per-rank work (minibatches sampled), bytes and messages, epoch time, and an
alpha-beta prediction of the epoch time of ranks with a core each:
    T = max over ranks (W_r t1 + alpha M_r + B_r / beta)
with W_r, B_r, M_r a rank's minibatches, bytes and messages sent, and t1 the sampling time of
one minibatch measured here at p = 1 (graph replicated: no communication).

    python3 experiments/run_row_work.py [--scale 16] [--alpha-us 5] [--beta-gbps 25]
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bench(matsamp, graph, p, args):
    command = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", str(p), "-x", "OMP_NUM_THREADS=1",
               matsamp, "bench", "-g", graph, "-b", "512", "-k", "2", "--train-fraction", "0.25", "--seed", "1"] + args
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matsamp", default=os.path.join(ROOT, "build", "csrc", "matsamp"))
    parser.add_argument("--scale", type=int, default=16, help="R-MAT scale of the graph")
    parser.add_argument("--alpha-us", type=float, default=5.0, help="latency per message (microseconds)")
    parser.add_argument("--beta-gbps", type=float, default=25.0, help="bandwidth per rank (GB/s)")
    parser.add_argument("--jsonl", help="also append every bench JSON to this file")
    a = parser.parse_args()
    graph = f"/tmp/matsamp_rmat{a.scale}.msg"
    if not os.path.exists(graph):
        subprocess.run([a.matsamp, "generate", "rmat", "--scale", str(a.scale), "-o", graph], check=True,
                       capture_output=True)
    alpha, beta = a.alpha_us * 1e-6, a.beta_gbps * 1e9
    samplers = {"graphsage": ["--sampler", "graphsage", "--fanouts", "15,10,5"],
                "ladies": ["--sampler", "ladies", "--samples", "512,512"]}
    print(f"R-MAT {a.scale}; alpha {a.alpha_us} us, beta {a.beta_gbps} GB/s; "
          f"{os.cpu_count()} cores here (times of p > {os.cpu_count()} ranks are oversubscribed)")
    print("| sampler | p | c | row work | minibatches per rank (max / mean) | MB sent per epoch | "
          "messages per rank (max) | fingerprint equal | epoch s here | alpha-beta s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, sampler in samplers.items():
        one = bench(a.matsamp, graph, 1, sampler + ["--distributed", "replicated"])
        t1 = sum(one["rank_time_s"]) / max(1, sum(one["rank_minibatches"]))
        for p in (4, 8):
            for c, work in ((1, "shared"), (2, "shared"), (2, "split")):
                j = bench(a.matsamp, graph, p, sampler + ["--distributed", "partitioned", "--replication", str(c),
                                                          "--row-work", work])
                if a.jsonl:
                    with open(a.jsonl, "a") as f:
                        f.write(json.dumps(j) + "\n")
                w, b, m = j["rank_minibatches"], j["rank_bytes_sent"], j["rank_messages_sent"]
                model = max(w[r] * t1 + alpha * m[r] + b[r] / beta for r in range(p))
                same = j["minibatch_fingerprint_sum"] == one["minibatch_fingerprint_sum"]
                print(f"| {name} | {p} | {c} | {work} | {max(w)} / {sum(w) / p:.1f} | {sum(b) / 1e6:.1f} | "
                      f"{max(m)} | {'yes' if same else 'NO'} | {j['epoch_s']:.3f} | {model:.3f} |")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
