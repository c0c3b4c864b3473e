/**
 * Commands printed back as bash prints them (print_cmd.c make_command_string), for `declare -f`,
 * `type NAME` and the text of a background job. Layout recorded from bash 5.2:
 *
 * - a function is `NAME () ` then its body; a group is `{ ` on its own line, the list indented by
 *   four, `}`; a nested definition gets `function ` in front;
 * - items of a list are separated by `;` and a new line; inside `if`/`for`/`while` bodies the last
 *   item ends with `;` too, in a group, a subshell or a case clause it does not; `&` stays inline;
 * - `if …; then`, `else`, `fi`, `elif` printed as an `if` nested in the `else`; `for NAME in WORDS;`
 *   then `do` on its own line; `while …; do`; `case WORD in ` with each pattern list indented, its
 *   body indented again and `;;` under the pattern; `[[ … ]]` and `(( … ))` as written.
 *
 * Words keep their quoting as typed (bash prints words from its own copy, which for the shapes a
 * learner types is the same text).
 */
import { literalText, type AndOr, type CondExpr, type Command, type Pipeline, type Redirect, type Script } from './parse/ast.js';

const pad = (n: number): string => ' '.repeat(n);

export function redirectText(r: Redirect): string {
  const fd = r.fd === undefined ? '' : String(r.fd);
  // a here-document's operator touches its delimiter, a quoted one printed in single quotes
  if (r.heredoc) return `${fd}${r.op}${r.heredoc.expand ? r.target.raw : `'${literalText(r.target)}'`}`;
  if (r.op === '>&' || r.op === '<&') return `${fd}${r.op}${r.target.raw}`;
  return `${fd}${r.op} ${r.target.raw}`;
}

function redirects(rs: readonly Redirect[]): string {
  return rs.map((r) => ` ${redirectText(r)}`).join('');
}

function condText(e: CondExpr): string {
  switch (e.kind) {
    case 'and':
      return `${condText(e.left)} && ${condText(e.right)}`;
    case 'or':
      return `${condText(e.left)} || ${condText(e.right)}`;
    case 'not':
      return `! ${condText(e.expr)}`;
    case 'unary':
      return `${e.op} ${e.arg.raw}`;
    case 'binary':
      return `${e.left.raw} ${e.op} ${e.right.raw}`;
    case 'word':
      return e.word.raw;
  }
}

/**
 * A list at indentation `ind`; `closeWithSemi`: the last item ends with `;` (compound bodies).
 * After an item with a here-document bash writes no `;` (its body has ended the line).
 */
function listText(s: Script, ind: number, closeWithSemi: boolean): string {
  let out = '';
  s.items.forEach((item, i) => {
    const text = andOrText(item, ind);
    out += text;
    const heredoc = [item.first, ...item.rest.map((r) => r.pipeline)].some((p) => p.commands.some((c) => c.type === 'simple' && c.redirects.some((r) => r.heredoc)));
    const last = i === s.items.length - 1;
    if (item.background) out += last ? ' &' : ' & ';
    else if (!last) out += `${heredoc ? '' : ';'}\n${pad(ind)}`;
    else if (closeWithSemi && !heredoc) out += ';';
  });
  return out;
}

function pipelineText(p: Pipeline, ind: number): string {
  const parts = p.commands.map((c, i) => {
    const text = commandText(c, ind);
    if (i === p.commands.length - 1) return text;
    const pipe = p.pipeStderr[i] ? '|&' : '|';
    // a here-document's body comes after the pipe symbol, the next command on the line after it
    const nl = text.indexOf('\n');
    return nl < 0 || !text.endsWith('\n') ? `${text} ${pipe} ` : `${text.slice(0, nl)} ${pipe}${text.slice(nl)}  `;
  });
  return `${p.negate ? '! ' : ''}${parts.join('')}`;
}

/** The bodies of a command's here-documents, each ended by its delimiter line (print_cmd.c print_deferred_heredocs). */
function heredocBodies(rs: readonly Redirect[]): string {
  return rs.map((r) => (r.heredoc ? `${r.heredoc.body}${literalText(r.target)}\n` : '')).join('');
}

/** An and-or list (`a && b || c`), as bash prints it on one line. */
export function andOrText(item: AndOr, ind = 0): string {
  return [pipelineText(item.first, ind), ...item.rest.map((r) => `${r.op} ${pipelineText(r.pipeline, ind)}`)].join(' ');
}

/** One command; its first line starts where the caller is, later lines carry their indentation. */
export function commandText(c: Command, ind: number, nested = true): string {
  switch (c.type) {
    case 'simple': {
      const assigns = c.assigns.map((a) => `${a.name}${a.index !== undefined ? `[${a.index}]` : ''}${a.append ? '+=' : '='}${a.array ? `(${a.array.map((w) => w.raw).join(' ')})` : a.value.raw}`);
      const line = [...assigns, ...c.words.map((w) => w.raw), ...c.redirects.map(redirectText)].join(' ');
      const bodies = heredocBodies(c.redirects);
      return bodies === '' ? line : `${line}\n${bodies}`;
    }
    case 'group':
      return `{ \n${pad(ind + 4)}${listText(c.body, ind + 4, false)}\n${pad(ind)}}${redirects(c.redirects)}`;
    case 'subshell':
      return `( ${listText(c.body, ind, false)} )${redirects(c.redirects)}`;
    case 'if': {
      const [first, ...rest] = c.clauses;
      let out = `if ${listText(first!.cond, ind, false)}; then\n${pad(ind + 4)}${listText(first!.body, ind + 4, true)}\n${pad(ind)}`;
      // elif is an if inside the else (parse.y builds it so)
      const elseBody: Script | undefined = rest.length ? { items: [{ first: { negate: false, commands: [{ ...c, clauses: rest }], pipeStderr: [] }, rest: [] }] } : c.elseBody;
      if (elseBody) out += `else\n${pad(ind + 4)}${listText(elseBody, ind + 4, true)}\n${pad(ind)}`;
      return `${out}fi${redirects(c.redirects)}`;
    }
    case 'for': {
      const head = c.arith ? `for ((${c.arith.map((x) => x.trim()).join('; ')}))\n` : `for ${c.name} in ${c.words ? c.words.map((w) => w.raw).join(' ') : '"$@"'};\n`;
      return `${head}${pad(ind)}do\n${pad(ind + 4)}${listText(c.body, ind + 4, true)}\n${pad(ind)}done${redirects(c.redirects)}`;
    }
    case 'while':
      return `${c.until ? 'until' : 'while'} ${listText(c.cond, ind, false)}; do\n${pad(ind + 4)}${listText(c.body, ind + 4, true)}\n${pad(ind)}done${redirects(c.redirects)}`;
    case 'case': {
      let out = `case ${c.word.raw} in \n`;
      for (const cl of c.clauses) {
        out += `${pad(ind + 4)}${cl.patterns.map((p) => p.raw).join(' | ')})\n`;
        if (cl.body.items.length) out += `${pad(ind + 8)}${listText(cl.body, ind + 8, false)}\n`;
        out += `${pad(ind + 4)}${cl.end}\n`;
      }
      return `${out}${pad(ind)}esac${redirects(c.redirects)}`;
    }
    case 'cond':
      return `[[ ${condText(c.expr)} ]]${redirects(c.redirects)}`;
    case 'arith':
      return `((${c.source}))${redirects(c.redirects)}`;
    case 'function':
      return `${nested ? 'function ' : ''}${c.name} () \n${pad(ind)}${commandText(c.body, ind)}`;
  }
}

/** `declare -f NAME` / `type NAME`'s definition: `NAME () ` and the body, with a final newline. */
export function functionText(name: string, body: Command): string {
  return `${name} () \n${commandText(body, 0)}\n`;
}
