import { FlinkSQL, type ErrorListener } from 'dt-sql-parser';

type FlinkParser = ReturnType<FlinkSQL['createParser']>;
type Token = ReturnType<FlinkParser['tokenStream']['get']>;

/** The lexer's identifier token type (looked up by name once: the package does not export the lexer's constants). */
let identifier: number | undefined;

/**
 * dt-sql-parser's Flink SQL with one fix to its token stream. The grammar (4.5.1) reads
 * `EXTRACT '(' identifier FROM valueExpression ')'`, but its lexer makes most of Flink's time
 * units reserved keywords (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND, DAYOFWEEK, DAYOFYEAR: they
 * name functions and interval units too), which `identifier` does not admit, so
 * `EXTRACT(HOUR FROM ts)` was a syntax error while `EXTRACT(QUARTER FROM ts)` parsed. The
 * lexer has made every token before the parser starts: a keyword between `EXTRACT (` and
 * `FROM` becomes an identifier token there. The text and every position stay as written
 * (errors keep their line and column), a mistake elsewhere in the call is still a syntax
 * error, and the unit is checked where the tree is converted (extract.ts).
 */
export class WeirFlinkSQL extends FlinkSQL {
  override createParser(input: string, errorListener?: ErrorListener): FlinkParser {
    const parser = super.createParser(input, errorListener);
    const stream = parser.tokenStream;
    const vocabulary = parser.vocabulary;
    identifier ??= tokenType(vocabulary, 'ID_LITERAL');
    // The default channel's tokens (whitespace and comments are hidden), in order.
    const tokens: Token[] = [];
    for (let i = 0; i < stream.size; i++) if (stream.get(i).channel === 0) tokens.push(stream.get(i));
    const named = (token: Token | undefined, name: string): boolean => token !== undefined && vocabulary.getSymbolicName(token.type) === name;
    for (let i = 2; i + 1 < tokens.length; i++) {
      const unit = tokens[i]!;
      if (named(tokens[i - 2], 'KW_EXTRACT') && tokens[i - 1]!.text === '(' && named(tokens[i + 1], 'KW_FROM') && vocabulary.getSymbolicName(unit.type)?.startsWith('KW_') === true) {
        unit.type = identifier;
      }
    }
    return parser;
  }
}

function tokenType(vocabulary: FlinkParser['vocabulary'], name: string): number {
  for (let type = 0; type <= vocabulary.maxTokenType; type++) if (vocabulary.getSymbolicName(type) === name) return type;
  throw new Error(`dt-sql-parser's Flink lexer has no ${name} token`);
}
