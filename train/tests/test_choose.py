"""train/choose.sh: the checkpoint a recipe keeps, from bench/val_bleu.sh
tables. choose: within 0.5 of the best beam 4, the fewest degenerate lines
(give or take a few), then the best beam 4;
choose_keeping: the same among those within a margin of the best on a
second validation set (the general models' Multi30k val), or above a floor
there (the caption model's score).

    make test-train
"""
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEAD = 'checkpoint fmt greedy beam4 loops1 loops4 t2loops1 t2loops4\n'
FLORES = HEAD + '''gptq q4 12.26 13.32 25 15 7 1
step-500 q4 12.55 13.48 9 7 7 3
step-1000 q4 12.52 13.34 3 2 2 1
step-1500 q4 12.50 13.36 4 8 3 2
step-3000 q4 11.00 12.90 0 0 0 0
'''
MULTI30K = 'checkpoint fmt greedy beam4\n' + '''gptq q4 32.29 33.58
step-500 q4 32.35 33.61
step-1000 q4 32.49 33.30
step-1500 q4 32.41 33.58
step-3000 q4 32.00 33.70
'''


def run(tmp_path, call, keep=MULTI30K):
    (tmp_path / 'flores.txt').write_text(FLORES)
    (tmp_path / 'keep.txt').write_text(keep)
    script = f'. train/choose.sh; {call}'
    return subprocess.run(['sh', '-c', script], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


def test_choose_takes_the_fewest_loops_near_the_best(tmp_path):
    # step-3000 loops least but is more than 0.5 below the best beam 4
    assert run(tmp_path, f'choose {tmp_path}/flores.txt') == 'step-1000'


def test_choose_counts_a_few_loops_as_noise(tmp_path):
    # step-1500 has 2 degenerate lines more than step-1000 (17 against 15,
    # within the slack of 5) and the better beam 4: it wins; without the
    # slack, or with step-1000's loops 8 below, the fewest loops decide
    table = FLORES.replace('3 2 2 1', '5 4 4 2')
    (tmp_path / 'slack.txt').write_text(table)
    assert run(tmp_path, f'choose {tmp_path}/slack.txt') == 'step-1500'
    assert run(tmp_path, f'LOOP_SLACK=0 choose {tmp_path}/slack.txt') == 'step-1000'
    assert run(tmp_path, f'choose {tmp_path}/flores.txt') == 'step-1000'


def test_choose_keeping_leaves_out_what_the_second_set_loses(tmp_path):
    # step-1000 is 0.40 below the best on the second set, step-1500 0.12:
    # within 0.2 the fewest loops is step-1500; within 0.5 step-1000 again
    assert run(tmp_path, f'choose_keeping {tmp_path}/flores.txt {tmp_path}/keep.txt 0.2') == 'step-1500'
    assert run(tmp_path, f'choose_keeping {tmp_path}/flores.txt {tmp_path}/keep.txt 0.5') == 'step-1000'


def test_choose_keeping_admits_what_stays_above_the_floor(tmp_path):
    # within 0.2 of the best (33.70) step-1000 (33.30) is out; a floor of
    # 33.0 (the caption model's) lets it in again, and its fewer loops win;
    # a floor above the margin's line changes nothing
    keeping = f'choose_keeping {tmp_path}/flores.txt {tmp_path}/keep.txt 0.2'
    assert run(tmp_path, f'{keeping} 33.0') == 'step-1000'
    assert run(tmp_path, f'{keeping} 34.0') == 'step-1500'
    assert run(tmp_path, f'{keeping} ""') == 'step-1500'


def test_choose_keeping_falls_back_when_the_second_set_keeps_none(tmp_path):
    unrelated = 'checkpoint fmt greedy beam4\nother q4 30.00 31.00\n'
    assert run(tmp_path, f'choose_keeping {tmp_path}/flores.txt {tmp_path}/keep.txt 0.1', unrelated) == 'step-1000'


ALPHA = ('alpha BLEU chrF words multi30k (FLORES dev references: 20903 words)\n'
         '0.3 13.20 41.40 18990 33.40\n'
         '0.6 13.36 41.68 19199 33.54\n'
         '1.0 13.47 41.92 19454 33.30\n'
         '1.5 13.44 42.05 19845 33.74\n')


def alpha(tmp_path, table, keep, gain='0.05', floor=''):
    (tmp_path / 'alpha.txt').write_text(table)
    return run(tmp_path, f'choose_alpha {tmp_path}/alpha.txt {keep} {gain} {floor}')


def test_choose_alpha_takes_the_best_flores_bleu_the_captions_keep(tmp_path):
    # 1.0 has the best FLORES BLEU but is 0.24 below 0.6's Multi30k (33.54):
    # within 0.1 the best is 1.5; within 0.3, 1.0 again
    assert alpha(tmp_path, ALPHA, '0.1') == '1.5'
    assert alpha(tmp_path, ALPHA, '0.3') == '1.0'
    assert alpha(tmp_path, ALPHA, '-') == '1.0'
    # a better Multi30k elsewhere (1.5's) does not rule out the default's own
    assert alpha(tmp_path, ALPHA.replace('13.36', '13.60'), '0.1') == '0.6'


def test_choose_alpha_admits_what_stays_above_the_floor(tmp_path):
    # 1.0 (33.30) is 0.24 below 0.6's Multi30k but above a floor of 33.2
    assert alpha(tmp_path, ALPHA, '0.1', floor='33.2') == '1.0'
    assert alpha(tmp_path, ALPHA, '0.1', floor='33.5') == '1.5'


def test_choose_alpha_without_captions(tmp_path):
    table = ''.join(line.rsplit(' ', 1)[0] + ' -\n' if i else line
                    for i, line in enumerate(ALPHA.splitlines(keepends=True)))
    assert alpha(tmp_path, table.replace('13.36', '13.50'), '0.1') == '0.6'
    assert alpha(tmp_path, table, '0.1') == '1.0'


def test_choose_alpha_keeps_the_default_within_the_gain(tmp_path):
    # 1.0 is 0.11 above 0.6 without captions: a gain of 0.1 takes it, 0.2 does not
    table = ALPHA.replace('33.30', '33.60')
    assert alpha(tmp_path, table, '0.1', '0.1') == '1.0'
    assert alpha(tmp_path, table, '0.1', '0.2') == '0.6'


def test_caption_keep_is_tight_only_where_the_caption_target_is(tmp_path):
    assert run(tmp_path, 'caption_keep ende ""') == '0.1'
    assert run(tmp_path, 'caption_keep fren ""') == '0.5'
    assert run(tmp_path, 'caption_keep fren 0.2') == '0.2'
    assert run(tmp_path, 'caption_keep deen -') == '-'


def test_shipped_format_names_the_4_bit_format_within_half_a_point_of_q8(tmp_path):
    def shipped(four, q8, q4, direction='deen'):
        (tmp_path / 'f.txt').write_text('model search BLEU chrF\n'
                                        f'{direction}.q8.nmt beam1 1.0 1\n{direction}.q8.nmt beam4 {q8} 1\n'
                                        f'{direction}.{four}.nmt beam4 {q4} 1\n')
        return run(tmp_path, f'shipped_format {tmp_path}/f.txt {direction}')

    assert shipped('q4n+i8', 14.16, 13.98) == 'q4n+i8'
    assert shipped('q4n', 14.16, 13.98) == 'q4n'
    assert shipped('q4', 14.16, 13.47) == 'q8'
    assert shipped('q4', 14.16, 13.47, 'ende') == 'q4'   # embedded: 4-bit for nmt's size
