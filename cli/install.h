/* nmt install: a model put where nmt models and nmt -l find it, the user's
 * folder of the catalog (cli/catalog.h: ~/.local/share/nmt):
 *
 *   nmt install [--force] FILE.nmt
 *   nmt install [--force] [--quant f32|q8|q4] [--src-lang L] [--tgt-lang L] DIR
 *
 * A packed file is opened with its checksums verified, then copied; a
 * Marian model's folder, as Firefox Translations publishes them, is packed
 * on the way (pack/marian_dir.h, pack/marian_import.h). Either is named
 * SRC-TGT.nmt after its languages and written atomically (a temporary file
 * in the folder, then a link or rename); an existing one is replaced only
 * with --force. */
#ifndef CLI_INSTALL_H
#define CLI_INSTALL_H

/* argv[0] is "install"; returns the exit status (errors exit with "nmt: ..."). */
int cli_install_main(int argc, char **argv);

#endif
