import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseScript, type Command, type CondExpr, type Script } from './ast.js';
import type { Word } from './tokenize.js';
import { LineReader } from './linereader.js';

/** Compact rendering of an AST so table cases stay readable. */
function word(w: Word): string {
  return w.parts
    .map((p) => {
      switch (p.kind) {
        case 'text':
          return p.quoted ? `"${p.value}"` : p.value;
        case 'var':
          return p.quoted ? `"\${${p.name}}"` : `\${${p.name}}`;
        case 'cmdsub':
          return `$(${p.source})`;
        case 'arith':
          return `$((${p.source}))`;
        case 'tilde':
          return '~';
        case 'procsub':
          return `${p.dir}(${p.source})`;
      }
    })
    .join('');
}

function command(c: Command): string {
  if (c.type === 'arith') return `((${c.source}))`;
  if (c.type === 'case') return `case ${word(c.word)} in ${c.clauses.map((cl) => `${cl.patterns.map(word).join('|')}) ${render(cl.body)} ${cl.end}`).join(' ')} esac`;
  if (c.type === 'for' && c.arith) return `for ((${c.arith.join(';')})) do ${render(c.body)} done`;
  if (c.type === 'for') return `for ${c.name}${c.words ? ` in ${c.words.map(word).join(' ')}` : ''} do ${render(c.body)} done`;
  if (c.type === 'while') return `${c.until ? 'until' : 'while'} ${render(c.cond)} do ${render(c.body)} done`;
  if (c.type === 'if') return `${c.clauses.map((cl, i) => `${i === 0 ? 'if' : 'elif'} ${render(cl.cond)} then ${render(cl.body)}`).join(' ')}${c.elseBody ? ` else ${render(c.elseBody)}` : ''} fi`;
  if (c.type === 'subshell') return `(${render(c.body)})${c.redirects.map((r) => ` ${r.fd ?? ''}${r.op}${word(r.target)}`).join('')}`;
  if (c.type === 'group') return `{ ${render(c.body)} }`;
  if (c.type === 'function') return `${c.name}() ${command(c.body)}`;
  if (c.type === 'cond') return `[[ ${cond(c.expr)} ]]`;
  const bits = [
    ...c.assigns.map((a) => `${a.name}${a.index !== undefined ? `[${a.index}]` : ''}${a.append ? '+' : ''}=${a.array ? `(${a.array.map(word).join(' ')})` : word(a.value)}`),
    ...c.words.map(word),
    ...c.redirects.map((r) => `${r.fd ?? ''}${r.op}${word(r.target)}${r.heredoc ? `[${JSON.stringify(r.heredoc.body)}${r.heredoc.expand ? '' : ',noexpand'}]` : ''}`),
  ];
  return `{${bits.join(' ')}}`;
}

function cond(e: CondExpr): string {
  if (e.kind === 'and' || e.kind === 'or') return `(${cond(e.left)} ${e.kind === 'and' ? '&&' : '||'} ${cond(e.right)})`;
  if (e.kind === 'not') return `!${cond(e.expr)}`;
  if (e.kind === 'unary') return `${e.op} ${word(e.arg)}`;
  if (e.kind === 'binary') return `${word(e.left)} ${e.op} ${word(e.right)}`;
  return word((e as { word: Word }).word);
}

function render(s: Script): string {
  return s.items
    .map((i) => {
      const pipe = (p: typeof i.first): string =>
        (p.negate ? '! ' : '') + p.commands.map((c, k) => (k === 0 ? '' : p.pipeStderr[k - 1] ? ' |& ' : ' | ') + command(c)).join('');
      return [pipe(i.first), ...i.rest.map((r) => ` ${r.op} ${pipe(r.pipeline)}`)].join('');
    })
    .join('; ');
}

const cases: Array<{ name: string; line: string; aliases?: Record<string, string>; want: string }> = [
  { name: 'plain words', line: 'kubectl get pods -A', want: '{kubectl get pods -A}' },
  { name: 'function with parens', line: 'f() { echo $1; }', want: 'f() { {echo ${1}} }' },
  { name: 'function keyword', line: 'function g { a; b; }', want: 'g() { {a}; {b} }' },
  { name: 'function keyword with parens, subshell body', line: 'function g() (a)', want: 'g() ({a})' },
  { name: 'group with redirect', line: '{ a; b; } > f', want: '{ {a}; {b} }' },
  { name: 'conditional', line: '[[ -z $a && ( $b == x* || ! -f f ) ]]', want: '[[ (-z ${a} && (${b} == x* || !-f f)) ]]' },
  { name: 'conditional < and =~', line: '[[ a < b ]] && [[ $x =~ ^v[0-9]+$ ]]', want: '[[ a < b ]] && [[ ${x} =~ ^v[0-9]+$ ]]' },
  { name: 'array assignment', line: 'a=(x "y z" $v) b[2]=c', want: '{a=(x "y z" ${v}) b[2]=c}' },
  { name: 'process substitution', line: 'source <(kubectl completion bash)', want: '{source <(kubectl completion bash)}' },
  { name: 'parameter operators', line: 'echo ${#a[@]} ${a[0]} ${x:-d} ${f%.yaml}', want: '{echo ${#a[@]} ${a[0]} ${x:-d} ${f%.yaml}}' },
  { name: 'double and single quotes', line: `echo "a b" 'c $X' d\\ e`, want: '{echo "a b" "c $X" d" "e}' },
  { name: 'variables', line: 'echo $A ${B}x "$C" \'$D\'', want: '{echo ${A} ${B}x "${C}" "$D"}' },
  { name: 'special parameters', line: 'echo $? $$', want: '{echo ${?} ${$}}' },
  { name: 'lone dollar is literal', line: 'echo $ a$', want: '{echo $ a$}' },
  { name: 'empty quotes make a word', line: `echo "" ''`, want: '{echo "" ""}' },
  { name: 'hash mid-word is literal', line: 'echo a#b # comment', want: '{echo a#b}' },
  { name: 'pipeline', line: 'a | b | c', want: '{a} | {b} | {c}' },
  { name: 'pipe stderr', line: 'a |& b', want: '{a} |& {b}' },
  { name: 'and-or', line: 'a && b || c', want: '{a} && {b} || {c}' },
  { name: 'sequence', line: 'a; b & c', want: '{a}; {b}; {c}' },
  { name: 'negation', line: '! grep x f', want: '! {grep x f}' },
  { name: 'redirects', line: 'a > f >> g < h 2> e', want: '{a >f >>g <h 2>e}' },
  { name: 'fd duplication order kept', line: 'a > f 2>&1', want: '{a >f 2>&1}' },
  { name: 'stderr dup before file', line: 'a 2>&1 > f', want: '{a 2>&1 >f}' },
  { name: 'both streams', line: 'a &> f', want: '{a &>f}' },
  { name: 'digit separated from operator is a word', line: 'echo 2 > f', want: '{echo 2 >f}' },
  { name: 'no space redirect', line: 'echo a>f', want: '{echo a >f}' },
  { name: 'here string', line: "cat <<< 'x y'", want: '{cat <<<"x y"}' },
  { name: 'heredoc', line: 'kubectl apply -f - <<EOF\napiVersion: v1\nkind: $K\nEOF', want: '{kubectl apply -f - <<EOF["apiVersion: v1\\nkind: $K\\n"]}' },
  { name: 'quoted heredoc delimiter', line: "cat <<'EOF'\n$X\nEOF", want: '{cat <<"EOF"["$X\\n",noexpand]}' },
  { name: 'heredoc strip tabs', line: 'cat <<-EOF\n\tx\n\tEOF', want: '{cat <<-EOF["x\\n"]}' },
  { name: 'heredoc then more commands', line: 'cat <<A; echo b\n1\nA', want: '{cat <<A["1\\n"]}; {echo b}' },
  { name: 'assignment only', line: 'A=1 B="x y"', want: '{A=1 B="x y"}' },
  { name: 'prefix assignment', line: 'KUBECONFIG=/x kubectl get po', want: '{KUBECONFIG=/x kubectl get po}' },
  { name: 'assignment after command is an argument', line: 'export A=b', want: '{export A=b}' },
  { name: 'alias expansion', line: 'k get po', aliases: { k: 'kubectl' }, want: '{kubectl get po}' },
  { name: 'alias with arguments', line: 'kgp -A', aliases: { kgp: 'kubectl get pods' }, want: '{kubectl get pods -A}' },
  { name: 'alias only in command position', line: 'echo k', aliases: { k: 'kubectl' }, want: '{echo k}' },
  { name: 'quoted word not aliased', line: "'k' get", aliases: { k: 'kubectl' }, want: '{"k" get}' },
  { name: 'alias after pipe', line: 'echo | k', aliases: { k: 'kubectl' }, want: '{echo} | {kubectl}' },
  { name: 'recursive alias stops', line: 'ls', aliases: { ls: 'ls --color' }, want: '{ls --color}' },
  { name: 'alias ending in space expands next word', line: 'sudo k', aliases: { sudo: 'sudo ', k: 'kubectl' }, want: '{sudo kubectl}' },
  { name: 'command substitution', line: 'echo $(date +%s) "`hostname`"', want: '{echo $(date +%s) $(hostname)}' },
  { name: 'nested command substitution', line: 'echo $(echo $(echo a))', want: '{echo $(echo $(echo a))}' },
  { name: 'arithmetic', line: 'echo $((1 + (2*3)))', want: '{echo $((1 + (2*3)))}' },
  { name: 'tilde', line: 'cd ~/x ~ a~', want: '{cd ~/x ~ a~}' },
  { name: 'subshell', line: '(cd /tmp; ls) > f', want: '({cd /tmp}; {ls}) >f' },
  { name: 'line continuation', line: 'echo a \\\nb', want: '{echo a b}' },
  { name: 'newline separates commands', line: 'echo a\necho b', want: '{echo a}; {echo b}' },
  { name: 'continued pipe', line: 'echo a |\ncat', want: '{echo a} | {cat}' },
  { name: 'for loop', line: 'for n in $(seq 3) x; do echo $n; done', want: 'for n in $(seq 3) x do {echo ${n}} done' },
  { name: 'for loop over lines', line: 'for f in *.yaml\ndo\n  cat $f\ndone > all', want: 'for f in *.yaml do {cat ${f}} done' },
  { name: 'while loop', line: 'while ! grep -q x f; do sleep 1; done', want: 'while ! {grep -q x f} do {sleep 1} done' },
  { name: 'until loop', line: 'until false; do break; done', want: 'until {false} do {break} done' },
  { name: 'if elif else', line: 'if test -f a; then echo a; elif true; then echo b; else echo c; fi', want: 'if {test -f a} then {echo a} elif {true} then {echo b} else {echo c} fi' },
  { name: 'reserved words as arguments', line: 'echo for do done if', want: '{echo for do done if}' },
];

for (const c of cases) {
  test(`parse: ${c.name}`, () => {
    const r = parseScript(c.line, c.aliases ? { aliases: c.aliases } : {});
    assert.ok(r.ok, `parse failed: ${JSON.stringify(r)}`);
    assert.equal(render(r.script), c.want);
  });
}

const errors: Array<{ name: string; line: string; want: string; dash?: string; eof?: boolean }> = [
  { name: 'leading pipe', line: '| a', want: "bash: syntax error near unexpected token `|'" },
  { name: 'double pipe gap', line: 'echo a | | b', want: "bash: syntax error near unexpected token `|'" },
  { name: 'double semicolon', line: 'echo a;;', want: "bash: syntax error near unexpected token `;;'" },
  // the end of the text: dash and ash say `end of file` there when no newline ends it
  { name: 'redirect without target', line: 'echo >', want: "bash: syntax error near unexpected token `newline'", eof: true },
  { name: 'redirect into operator', line: 'echo > ;', want: "bash: syntax error near unexpected token `;'" },
  { name: 'and-and twice', line: 'a && && b', want: "bash: syntax error near unexpected token `&&'" },
  { name: 'lone close paren', line: ') a', want: "bash: syntax error near unexpected token `)'" },
  { name: 'leading ampersand', line: '& a', want: "bash: syntax error near unexpected token `&'" },
  { name: 'heredoc without word', line: 'cat <<', want: "bash: syntax error near unexpected token `newline'" },
  { name: 'stray done', line: 'done', want: "bash: syntax error near unexpected token `done'" },
  { name: 'for without do', line: 'for i in 1; echo', want: "bash: syntax error near unexpected token `echo'", dash: 'Syntax error: word unexpected (expecting "do")' },
  { name: 'empty then', line: 'if true; then fi', want: "bash: syntax error near unexpected token `fi'" },
  { name: 'if without then', line: 'if true; fi', want: "bash: syntax error near unexpected token `fi'", dash: 'Syntax error: "fi" unexpected (expecting "then")' },
  { name: 'closer inside braces', line: '{ echo; done; }', want: "bash: syntax error near unexpected token `done'", dash: 'Syntax error: "done" unexpected (expecting "}")' },
  { name: 'for with a bad name', line: 'for 1 in a; do :; done', want: "bash: `1': not a valid identifier", dash: 'Syntax error: Bad for loop variable' },
];

for (const c of errors) {
  test(`parse error: ${c.name}`, () => {
    const r = parseScript(c.line);
    assert.deepEqual(r, { ok: false, incomplete: false, error: c.want, ...(c.dash !== undefined ? { dash: c.dash } : {}), ...(c.eof ? { eof: true } : {}) });
  });
}

const incomplete: Array<{ name: string; line: string; reason: string; expecting?: string; dash?: boolean }> = [
  { name: 'open double quote', line: 'echo "abc', reason: '"' },
  { name: 'open single quote', line: "echo 'abc", reason: "'" },
  { name: 'trailing backslash', line: 'echo a \\', reason: '\\' },
  { name: 'trailing pipe', line: 'echo a |', reason: '|' },
  { name: 'trailing and', line: 'a &&', reason: '&&' },
  { name: 'heredoc body missing', line: 'cat <<EOF', reason: 'heredoc' },
  { name: 'heredoc not terminated', line: 'cat <<EOF\nline', reason: 'heredoc' },
  { name: 'open command substitution', line: 'echo $(date', reason: ')' },
  { name: 'open subshell', line: '(echo a', reason: '(', expecting: ')' },
  { name: 'open for loop', line: 'for i in 1 2; do echo $i', reason: 'for', expecting: 'done' },
  { name: 'for without its list', line: 'for i', reason: 'for', expecting: 'do' },
  { name: 'for in the word list', line: 'for i in a', reason: 'for' },
  { name: 'open if', line: 'if true; then', reason: 'if', expecting: 'fi' },
  { name: "open $'", line: "echo $'abc", reason: "'" },
  { name: "escaped quote in $'", line: "echo $'it\\'s", reason: "'" },
  { name: "$' inside a command substitution", line: "echo $(echo $'a\\')'", reason: ')' },
  { name: "dash: $' is no quoting of its own", line: "echo $'it\\'s'", reason: "'", dash: true },
];

for (const c of incomplete) {
  test(`parse incomplete: ${c.name}`, () => {
    const want = { ok: false, incomplete: true, reason: c.reason, ...(c.expecting !== undefined ? { expecting: c.expecting } : {}) };
    assert.deepEqual(parseScript(c.line, c.dash ? { dash: true } : {}), want);
  });
}

test("$'…' is one quoted word in bash and a literal $ before a quote in dash", () => {
  const words = (line: string, dash: boolean): unknown => {
    const r = parseScript(line, dash ? { dash: true } : {});
    assert.ok(r.ok, line);
    const cmd = r.script.items[0]!.first.commands[0]!;
    assert.equal(cmd.type, 'simple');
    return cmd.type === 'simple' ? cmd.words.map((w) => w.parts) : undefined;
  };
  assert.deepEqual(words("echo $'a\\tb' \"$'x'\"", false), [[{ kind: 'text', value: 'echo', quoted: false }], [{ kind: 'text', value: 'a\tb', quoted: true }], [{ kind: 'text', value: "$'x'", quoted: true }]]);
  assert.deepEqual(words("echo $'a\\'b'", false), [[{ kind: 'text', value: 'echo', quoted: false }], [{ kind: 'text', value: "a'b", quoted: true }]]);
  assert.deepEqual(words("echo $'a\\'b", true), [[{ kind: 'text', value: 'echo', quoted: false }], [{ kind: 'text', value: '$', quoted: false }, { kind: 'text', value: 'a\\', quoted: true }, { kind: 'text', value: 'b', quoted: false }]]);
  assert.deepEqual(words('echo $"a b"', false), [[{ kind: 'text', value: 'echo', quoted: false }], [{ kind: 'text', value: 'a b', quoted: true }]]);
});

test('LineReader asks for more lines until a heredoc is closed', () => {
  const lr = new LineReader();
  assert.deepEqual(lr.push('kubectl apply -f - <<EOF'), { status: 'more' });
  assert.equal(lr.pending, true);
  assert.deepEqual(lr.push('kind: Pod'), { status: 'more' });
  const done = lr.push('EOF');
  assert.equal(done.status, 'complete');
  assert.equal(done.status === 'complete' && done.source, 'kubectl apply -f - <<EOF\nkind: Pod\nEOF');
  assert.equal(lr.pending, false);
});

test('LineReader joins an open quote across lines', () => {
  const lr = new LineReader();
  assert.deepEqual(lr.push('echo "a'), { status: 'more' });
  const done = lr.push('b"');
  assert.ok(done.status === 'complete' && done.parsed.ok);
  assert.equal(done.status === 'complete' && done.source, 'echo "a\nb"');
});

test('LineReader reports syntax errors as complete', () => {
  const lr = new LineReader();
  const r = lr.push('echo a | | b');
  assert.deepEqual(r.status === 'complete' && r.parsed, { ok: false, incomplete: false, error: "bash: syntax error near unexpected token `|'" });
});

test('LineReader eof on an open quote gives bash wording', () => {
  const lr = new LineReader();
  lr.push("echo 'abc");
  assert.deepEqual(lr.eof(), { source: "echo 'abc", error: "bash: unexpected EOF while looking for matching `''\nbash: syntax error: unexpected end of file" });
  assert.equal(lr.eof(), undefined);
});

test('LineReader uses current aliases', () => {
  let aliases: Record<string, string> = {};
  const lr = new LineReader(() => ({ aliases }));
  aliases = { k: 'kubectl' };
  const r = lr.push('k get po');
  assert.ok(r.status === 'complete' && r.parsed.ok && render(r.parsed.script) === '{kubectl get po}');
});

test('parseScript: the same text, dialect and alias answers give the one frozen parse; a different alias parses anew', () => {
  const line = 'k get pods | grep -c Running';
  const a = parseScript(line, { aliases: { k: 'kubectl' } });
  assert.equal(parseScript(line, { aliases: { k: 'kubectl' } }), a, 'a memoised parse is returned as it is');
  assert.ok(a.ok && Object.isFrozen(a.script), 'shared, so frozen');
  assert.equal(parseScript(line, { aliases: { k: 'kubectl', ll: 'ls -l' } }), a, 'an alias the parse never asked about does not matter');
  const other = parseScript(line, { aliases: { k: 'kubectl -n kube-system' } });
  assert.ok(other.ok && a.ok);
  assert.notDeepEqual(other.script, a.script, 'the alias value is part of the key');
  const none = parseScript(line);
  assert.ok(none.ok);
  assert.equal(render(none.script), '{k get pods} | {grep -c Running}');
  assert.equal(render((a as { script: Script }).script), '{kubectl get pods} | {grep -c Running}');
  const dash = parseScript('a=(1 2)', { dash: true });
  assert.notDeepEqual(dash, parseScript('a=(1 2)'), 'the dialect is part of the key');
});
