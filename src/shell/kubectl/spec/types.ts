/**
 * kubectl commands declared as data (the kubectl anchor: cobra.Command's Use/Short/Long/Example and
 * its pflag set). One parser (../flags.ts), the help renderer (./help.ts), completion and the
 * "Did you mean this?" suggestions read these declarations and nothing else.
 */

/** How the parser reads a flag's value (pflag's value types, as kubectl declares them). */
export type FlagType = 'bool' | 'string' | 'int' | 'stringArray' | 'stringSlice';

export interface FlagDecl {
  name: string;
  short?: string;
  type: FlagType;
  /** pflag's DefValue exactly as kubectl's help prints it (`'none'`, `[]`, `false`, `0s`, `-1`). */
  defValue: string;
  /** pflag's NoOptDefVal: the value a flag given without `=value` takes (`--dry-run` → `unchanged`). */
  noOptDefault?: string;
  /** The flag's usage text (may span lines). */
  usage: string;
  /**
   * pflag's MarkDeprecated message: the flag still parses, help hides it, and using it prints
   * `Flag --NAME has been deprecated, MESSAGE` on stderr (the recorder never sees hidden flags,
   * so these are added by hand with the upstream message).
   */
  deprecated?: string;
}

export interface CommandSpec {
  /** The word that selects the command (`scale`, `deployment`, `get-contexts`). */
  name: string;
  aliases?: readonly string[];
  /** One line, as its parent lists it. */
  short: string;
  long: string;
  example?: string;
  /** The `Usage:` line without `kubectl`'s indentation; absent for commands that only group others. */
  usage?: string;
  /**
   * Set for a group that prints its help when run without a subcommand or argument: kubectl's
   * DefaultSubCommandRun writes it to stderr and exits 1; a few write it to stdout.
   */
  bare?: { stream: 'stdout' | 'stderr'; exitCode: number };
  flags?: readonly FlagDecl[];
  commands?: readonly CommandSpec[];
}

export interface CommandGroup {
  title: string;
  commands: readonly CommandSpec[];
}
