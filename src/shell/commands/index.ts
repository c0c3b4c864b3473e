/**
 * The text and file commands every shell context offers (workstation, node, pod). The lead merges
 * this table with kubectl and the node/pod tools and hands a lookup to the Interpreter.
 */
import type { CommandFn } from '../types.js';
import { base64 } from './base64.js';
import { basename } from './basename.js';
import { cat } from './cat.js';
import { clear } from './clear.js';
import { column } from './column.js';
import { cp } from './cp.js';
import { cut } from './cut.js';
import { date } from './date.js';
import { dirname } from './dirname.js';
import { echo } from './echo.js';
import { env } from './env.js';
import { expr } from './expr.js';
import { find } from './find.js';
import { comm } from './comm.js';
import { nl } from './nl.js';
import { nproc } from './nproc.js';
import { paste } from './paste.js';
import { yes } from './yes.js';
import { stat } from './stat.js';
import { chmod } from './chmod.js';
import { ln } from './ln.js';
import { mktemp } from './mktemp.js';
import { watch } from './watch.js';
import { diff } from './diff.js';
import { du } from './du.js';
import { md5sum, sha1sum, sha224sum, sha256sum, sha384sum, sha512sum } from './sums.js';
import { egrep, fgrep, grep } from './grep.js';
import { head } from './head.js';
import { history } from './history.js';
import { less, more } from './less.js';
import { hostname } from './hostname.js';
import { ls } from './ls.js';
import { mkdir } from './mkdir.js';
import { mv } from './mv.js';
import { openssl } from './openssl.js';
import { printenv } from './printenv.js';
import { printf } from './printf.js';
import { readlink, realpath } from './realpath.js';
import { rm } from './rm.js';
import { sed } from './sed.js';
import { seq } from './seq.js';
import { sleep } from './sleep.js';
import { sort } from './sort.js';
import { tac } from './tac.js';
import { od } from './od.js';
import { tail } from './tail.js';
import { tee } from './tee.js';
import { bracket, test } from './test.js';
import { timeout } from './timeout.js';
import { touch } from './touch.js';
import { tr } from './tr.js';
import { uniq } from './uniq.js';
import { wc } from './wc.js';
import { which } from './which.js';
import { whoami } from './whoami.js';
import { trueCmd } from './true.js';
import { falseCmd } from './false.js';
import { xargs } from './xargs.js';

/**
 * The biggest tools load when first run, not with every shell and one-shot kubectl: helm (its
 * recorded help texts and chart repository, ~250 KB), jq and awk. A one-shot command's start is
 * mostly compiling the code it loads.
 */
const helm: CommandFn = async (ctx) => (await import('../helm/index.js')).helm(ctx);
const jq: CommandFn = async (ctx) => (await import('./jq.js')).jq(ctx);
const awk: CommandFn = async (ctx) => (await import('./awk.js')).awk(ctx);

export const textCommands: Record<string, CommandFn> = {
  awk,
  base64,
  basename,
  cat,
  chmod,
  clear,
  column,
  comm,
  cp,
  cut,
  date,
  dirname,
  echo,
  egrep,
  env,
  expr,
  diff,
  du,
  find,
  md5sum,
  sha1sum,
  sha224sum,
  sha256sum,
  sha384sum,
  sha512sum,
  fgrep,
  grep,
  head,
  helm,
  history,
  hostname,
  jq,
  less,
  ln,
  ls,
  mawk: awk,
  mkdir,
  mktemp,
  more,
  mv,
  nl,
  nproc,
  od,
  openssl,
  paste,
  printenv,
  printf,
  readlink,
  realpath,
  rm,
  sed,
  seq,
  sleep,
  sort,
  stat,
  tac,
  tail,
  tee,
  timeout,
  test,
  '[': bracket,
  true: trueCmd,
  false: falseCmd,
  touch,
  tr,
  uniq,
  wc,
  watch,
  which,
  whoami,
  xargs,
  yes,
};
