import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DESCRIBE_TABWRITER, GET_TABWRITER, TabWriter, renderRows, tabwrite } from './tabwriter.js';

const cases: { name: string; input: string; opts: typeof GET_TABWRITER; want: string }[] = [
  {
    name: 'get: columns are max(len)+3, last cell unpadded',
    input: 'NAME\tREADY\tSTATUS\nnginx\t1/1\tRunning\n',
    opts: GET_TABWRITER,
    want: 'NAME    READY   STATUS\nnginx   1/1     Running\n',
  },
  {
    name: 'get: minwidth 6 applies to short columns',
    input: 'A\tB\nx\ty\n',
    opts: GET_TABWRITER,
    want: 'A     B\nx     y\n',
  },
  {
    name: 'empty tab-terminated cell is padded (trailing blanks)',
    input: 'CURRENT\tNAME\tNAMESPACE\n*\tctx\t\n',
    opts: GET_TABWRITER,
    want: 'CURRENT   NAME   NAMESPACE\n*         ctx    \n',
  },
  {
    name: 'describe: a line without tabs ends the column block',
    input: 'Name:\tweb-1\nStatus:\tRunning\nIPs:\n  IP:\t10.244.1.4\nControlled By:\tReplicaSet/web\n',
    opts: DESCRIBE_TABWRITER,
    want: 'Name:    web-1\nStatus:  Running\nIPs:\n  IP:           10.244.1.4\nControlled By:  ReplicaSet/web\n',
  },
  {
    name: 'describe: condition rows keep the space before the tab',
    input: 'Type \tStatus \nReady \tTrue \n',
    opts: DESCRIBE_TABWRITER,
    want: 'Type    Status \nReady   True \n',
  },
  {
    name: 'widths count runes, not bytes',
    input: 'ü\tx\nab\ty\n',
    opts: DESCRIBE_TABWRITER,
    want: 'ü   x\nab  y\n',
  },
  {
    name: 'text without trailing newline is flushed as is',
    input: 'a\tb\nccc\td',
    opts: DESCRIBE_TABWRITER,
    want: 'a    b\nccc  d',
  },
  {
    name: 'nested blocks: a shorter line splits the second column only',
    input: 'a\tb\tc\naaaa\tbbbbbb\naa\tb\tc\n',
    opts: DESCRIBE_TABWRITER,
    want: 'a     b  c\naaaa  bbbbbb\naa    b  c\n',
  },
];

for (const c of cases) {
  test(`tabwriter: ${c.name}`, () => {
    assert.equal(tabwrite(c.input, c.opts), c.want);
  });
}

test('tabwriter: RememberWidths keeps widths across internal flushes until reset', () => {
  const w = new TabWriter(GET_TABWRITER);
  w.write('LONGNAME\tX\n');
  w.flush();
  w.write('a\tb\n');
  assert.equal(w.take(), 'LONGNAME   X\na          b\n');
  w.resetRememberedWidths();
  w.write('a\tb\n');
  assert.equal(w.take(), 'a     b\n');
});

test('renderRows joins cells with tabs', () => {
  assert.equal(renderRows([['NAME', 'AGE'], ['web', '5m']]), 'NAME   AGE\nweb    5m\n');
});
