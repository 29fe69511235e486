"""Per-stage tables of the SSRU family from a profile build's runs
(bench/ssru_profile.sh runs them; this only reads their files).

  /usr/bin/python3 bench/ssru_profile.py stages NAME TIME.txt CG_TABLE.txt CALLGRIND.out
      one configuration: per stage the share of multiply-adds, of
      instructions (callgrind) and of time (the profile build's timers),
      instructions and picoseconds per multiply-add; then the instructions
      by kind of kernel. Writes NAME's shares to NAME.tsv beside TIME.txt.
  /usr/bin/python3 bench/ssru_profile.py compact A.tsv B.tsv ...
      the shares of several configurations side by side.

TIME.txt is what `nmt` of `make PROFILE=1` prints to stderr at exit for
the timed run (engine/profile.h's stages, their seconds and multiply-adds);
CG_TABLE.txt the same for the run under callgrind, whose multiply-adds set
its instructions per multiply-add; CALLGRIND.out that run's callgrind file,
written with --compress-strings=no --compress-pos=no
--separate-callers1=ssru_ffn.

Instructions are charged to stages by function: the profile build keeps
each stage's function out of line (ENGINE_PROF_NOINLINE), and a stage is a
function's inclusive cost, or the cost of the calls it makes to another
(ssru_ffn's callers told apart by callgrind's --separate-callers).
"""
import collections
import re
import sys

# stage ids in the order nmt prints them (engine/profile.h)
STAGES = ['enc_embed', 'enc_qkv', 'enc_att', 'enc_out', 'enc_ffn1', 'enc_ffn2', 'cross_kv', 'encoder',
          'dec_embed', 'dec_ssru', 'cross_q', 'cross_att', 'cross_out', 'dec_ffn1', 'dec_ffn2', 'decoder',
          'out_shortlist', 'out_product', 'out_softmax', 'search', 'other']

# self cost of these functions (the ISA's kernels: AVX2 under valgrind) by kind
KINDS = [
    ('integer products (q8/q4 kernels + driver)',
     r'^(q[48]_(dot|panel|panel_multi|block)|quant_matmul_q|block_by_panels|quant_matmul|quant_matmul_rows_q)$'),
    ('activation quantization (quantize_x)', r'^(quantize_x|quantize_inputs)$'),
    ('rescale of the integer sums', r'^rescale$'),
    ('f32 products (attention scores)', r'^(quant_f32_rows_\w+|quant_matmul_f32|rows_times_inputs)$'),
    ('softmax + weighted sum (attention)', r'^(softmax|weighted_sum|ssru_attend)$'),
    ('layer norm, residual, ReLU, SSRU cell', r'^(layer_norm|add|add_relu|relu|ssru|ssru_project_norm)$'),
    ('positions (sinf, cosf, expf) + embedding rows',
     r'^(ssru_add_position|sincosf|sinf|cosf|expf|__sindf|__cosdf|__rem_pio2f|quant_matrix_row(_q)?|'
     r'embed_source|embed_previous)$'),
    ('log-softmax, best k, search', r'^(log_normalizer|first_reaching|pick_candidates|engine_search|logf)$'),
]

SUFFIX = re.compile(r'\.(constprop|isra|part|cold|lto_priv)(\.\d+)?')


def norm(name):
    """gcc's clones (f.constprop.0, f.part.0, ...) counted as f itself."""
    return "'".join(SUFFIX.sub('', part) for part in name.split("'"))


def read_callgrind(path):
    """Self cost per function and inclusive cost per (caller, callee)."""
    self_cost, edge = collections.Counter(), collections.Counter()
    fn = cfn = None
    call_next = False
    total = 0
    with open(path) as f:
        for line in f:
            if line.startswith('fn='):
                fn = norm(line[3:].strip())
            elif line.startswith('cfn='):
                cfn = norm(line[4:].strip())
            elif line.startswith('calls='):
                call_next = True
            elif line.startswith('summary:') or line.startswith('totals:'):
                total = int(line.split()[1])
            elif line[:1].isdigit() or line[:1] in '+-*':
                cost = int(line.split()[1])
                if call_next:
                    if cfn != fn:   # a clone calling its original: both are one function
                        edge[fn, cfn] += cost
                    call_next = False
                else:
                    self_cost[fn] += cost
    return self_cost, edge, total


def instructions(path):
    """Instructions per stage, of the whole run and of the kinds of kernel."""
    self_cost, edge, total = read_callgrind(path)
    out_edges = collections.defaultdict(int)
    for (a, _), c in edge.items():
        out_edges[a] += c

    def incl(f):
        return self_cost[f] + out_edges[f]

    def e(a, b):
        return edge[a, b]

    fe, fd = "ssru_ffn'ssru_encode", "ssru_ffn'ssru_step"
    att, pn = 'ssru_attend', 'ssru_project_norm'

    def attention_ffn(attention, ffn, names):
        """An attention's input projections, ssru_attend and output projection,
        then a feed-forward's first and second product (ssru_project_norm):
        the encoder's self-attention or the decoder's cross-attention, the
        five stages named by names in that order."""
        inputs, attend, output, ffn1, ffn2 = names
        return {
            inputs: incl(attention) - e(attention, att) - e(attention, pn),
            attend: e(attention, att),
            output: e(attention, pn),
            ffn1: incl(ffn) - e(ffn, pn),
            ffn2: e(ffn, pn),
        }

    st = {
        'enc_embed': incl('embed_source'),
        **attention_ffn('self_attention', fe, ('enc_qkv', 'enc_att', 'enc_out', 'enc_ffn1', 'enc_ffn2')),
        'cross_kv': incl('ssru_encode') - sum(e('ssru_encode', g) for g in ('embed_source', 'self_attention', fe)),
        'encoder': incl('engine_encode') - incl('ssru_encode'),
        'dec_embed': incl('embed_previous'),
        'dec_ssru': incl('ssru_layer'),
        **attention_ffn('cross_attention', fd, ('cross_q', 'cross_att', 'cross_out', 'dec_ffn1', 'dec_ffn2')),
        'decoder': incl('engine_decode_step') - sum(
            e('ssru_step', g) for g in ('embed_previous', 'ssru_layer', 'cross_attention', fd, 'engine_output_layer')),
        'out_shortlist': incl('engine_shortlists_build'),
        'out_product': incl('engine_output_layer'),
        'out_softmax': incl('pick_candidates'),
        'search': incl('engine_search') - incl('engine_decode_step') - incl('pick_candidates'),
        'other': incl('engine_translator_batch') - incl('engine_encode') - incl('engine_search') -
                 incl('engine_shortlists_build'),
    }
    kinds = collections.OrderedDict((k, 0) for k, _ in KINDS)
    for f, c in self_cost.items():
        for k, pattern in KINDS:
            if re.match(pattern, f.split("'")[0]):
                kinds[k] += c
                break
    return st, total, incl('engine_translator_batch'), kinds


def read_table(path):
    """{stage: (seconds, MACs)} of nmt's profile table."""
    out = {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if p and (p[0] in STAGES or p[0] == 'total'):
                out[p[0]] = (float(p[1]), float(p[3]))
    return out


def pct(x, whole):
    return 100.0 * x / whole if whole else 0.0


def stages(name, time_path, cg_table_path, cg_path):
    timed, cg_table = read_table(time_path), read_table(cg_table_path)
    ins, ins_total, ins_translators, kinds = instructions(cg_path)
    sec_total, mac_total = timed['total']
    cg_mac_total = cg_table['total'][1]
    print(f'{"stage":14s} {"MACs":>7s} {"instr":>7s} {"time":>7s} {"instr/MAC":>10s} {"ps/MAC":>8s}')
    rows = []
    for s in STAGES:
        sec, macs = timed[s]
        cg_macs = cg_table[s][1]
        per_mac = f'{ins[s] / cg_macs:10.2f}' if cg_macs else f'{"-":>10s}'
        ps = f'{sec * 1e12 / macs:8.1f}' if macs else f'{"-":>8s}'
        print(f'{s:14s} {pct(macs, mac_total):6.1f}% {pct(ins[s], ins_translators):6.1f}% '
              f'{pct(sec, sec_total):6.1f}% {per_mac} {ps}')
        rows.append((s, pct(macs, mac_total), pct(ins[s], ins_translators), pct(sec, sec_total)))
    charged = sum(ins.values())
    print(f'{"total":14s} {100:6.1f}% {pct(charged, ins_translators):6.1f}% {100:6.1f}% '
          f'{ins_translators / cg_mac_total:10.2f} {sec_total * 1e12 / mac_total:8.1f}')
    print(f'translators: {sec_total:.2f} s timed, {mac_total / 1e9:.2f} G multiply-adds; under callgrind '
          f'{ins_translators / 1e9:.2f} G instructions for {cg_mac_total / 1e9:.2f} G multiply-adds, '
          f'{pct(ins_total - ins_translators, ins_total):.1f}% more outside them (load, input, output)')
    print('instructions by kind (self cost, % of the whole run under callgrind):')
    for k, c in kinds.items():
        print(f'  {k:52s} {pct(c, ins_total):5.1f}%')
    print(f'  {"the rest":52s} {pct(ins_total - sum(kinds.values()), ins_total):5.1f}%')
    with open(re.sub(r'[^/]*$', '', time_path) + name + '.tsv', 'w') as f:
        f.write(f'#\t{name}\t{sec_total}\t{mac_total}\t{ins_translators}\t{cg_mac_total}\n')
        for r in rows:
            f.write('\t'.join([r[0]] + [f'{v:.1f}' for v in r[1:]]) + '\n')
        for k, c in kinds.items():
            f.write(f'kind\t{k}\t{pct(c, ins_total):.1f}\n')


def compact(paths):
    cols = []
    for p in paths:
        with open(p) as f:
            lines = [line.rstrip('\n').split('\t') for line in f]
        head = lines[0]
        cols.append((head[1], {r[0]: r[1:] for r in lines[1:] if r[0] != 'kind'}, float(head[2])))
    print('shares of multiply-adds / instructions / time, %')
    print(f'{"stage":14s}' + ''.join(f' {name:>20s}' for name, _, _ in cols))
    for s in STAGES:
        print(f'{s:14s}' + ''.join(f' {"/".join(v[s]):>20s}' for _, v, _ in cols))
    print(f'{"seconds":14s}' + ''.join(f' {sec:20.2f}' for _, _, sec in cols))


def main():
    if len(sys.argv) == 6 and sys.argv[1] == 'stages':
        stages(*sys.argv[2:])
    elif len(sys.argv) > 2 and sys.argv[1] == 'compact':
        compact(sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
