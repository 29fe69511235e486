"""Translate a corpus on a Dask cluster with the Python binding (python/).

    python3 examples/dask_translate.py INPUT OUTPUT [--scheduler ADDRESS]
        [--local-workers N] [--lines-per-shard N] [--model PATH] [--beam N]
        [--threads N]

The input is cut into shards of consecutive lines; each worker translates a
shard with its own nmt.Translator (opened once per worker process) and the
shards are written back in input order, one output line per input line, so
the output is byte for byte what one `nmt` process writes with the same
options. A bounded window of shards is in flight, so the corpus never has to
fit in memory. --scheduler joins a running cluster (workers need the nmt
package and libnmt.so); without it a LocalCluster of --local-workers
processes runs on this machine. docs/SCALE.md shows the same with Spark and
Hadoop streaming.
"""
import argparse
import collections
import itertools
import os

_translators = {}   # one per worker process and (model, threads)


def translate_shard(lines, model, beam, threads):
    import nmt
    key = (model, threads)
    if key not in _translators:
        _translators[key] = nmt.Translator(model=model, threads=threads)
    out = _translators[key].translate(lines, beam=beam)
    # a translation stays on one line whatever the vocabulary decodes to, as in nmt
    return [r.translation.replace('\r', ' ').replace('\n', ' ') for r in out]


def read_lines(f):
    """Lines without their "\\n" or "\\r\\n", as nmt reads them (a lone
    "\\r" inside a line stays in it)."""
    for raw in f:   # a binary file splits on "\\n" only
        line = raw[:-1] if raw.endswith(b'\n') else raw
        line = line[:-1] if line.endswith(b'\r') else line
        yield line.decode('utf-8', 'surrogateescape')


def shards(path, size):
    with open(path, 'rb') as f:
        lines = read_lines(f)
        while True:
            shard = list(itertools.islice(lines, size))
            if not shard:
                return
            yield shard


def run(client, args, workers):
    window = collections.deque()
    with open(args.output, 'w', encoding='utf-8', errors='surrogateescape', newline='') as out:
        for shard in shards(args.input, args.lines_per_shard):
            window.append(client.submit(translate_shard, shard, args.model, args.beam, args.threads, pure=False))
            if len(window) >= 4 * workers:
                out.writelines(line + '\n' for line in window.popleft().result())
        while window:
            out.writelines(line + '\n' for line in window.popleft().result())


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('input')
    p.add_argument('output')
    p.add_argument('--scheduler', help='address of a running Dask scheduler')
    p.add_argument('--local-workers', type=int, default=2)
    p.add_argument('--lines-per-shard', type=int, default=1000)
    p.add_argument('--model', help='a .nmt file on every worker (default: the built-in model)')
    p.add_argument('--beam', type=int, default=4)
    p.add_argument('--threads', type=int, default=1, help='threads per worker')
    args = p.parse_args()
    if args.lines_per_shard < 1:
        raise SystemExit('--lines-per-shard must be at least 1')
    from dask.distributed import Client, LocalCluster
    if args.scheduler:
        with Client(args.scheduler) as client:
            run(client, args, max(1, len(client.scheduler_info()['workers'])))
    else:
        with LocalCluster(n_workers=args.local_workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            run(client, args, args.local_workers)


if __name__ == '__main__':
    os.environ.setdefault('OMP_NUM_THREADS', '1')
    main()
