import { ConfigOptions, envVarName, type ConfigKey, type ConfigOption } from '@weir/common';

function formatDefault(option: ConfigOption): string {
  if (option.type !== 'duration') return option.default === '' ? '(empty)' : `\`${option.default}\``;
  const ms = Number(option.default);
  const [unit, size] = ([['h', 3_600_000], ['min', 60_000], ['s', 1_000]] as const).find(([, size]) => ms % size === 0 && ms > 0) ?? ['ms', 1];
  return `\`${ms / size}${unit}\``;
}

/** The README's configuration table as ConfigOptions says it must be. */
export function configTable(): string {
  const rows = (Object.entries(ConfigOptions) as [ConfigKey, ConfigOption][]).map(
    ([key, option]) =>
      `| \`${key}\` | \`${envVarName(key)}\` | ${option.type === 'enum' ? (option.values ?? []).join(', ') : option.type} | ${formatDefault(option)} | ${option.doc} |`,
  );
  return ['| key | environment variable | type | default | what it does |', '|---|---|---|---|---|', ...rows].join('\n');
}

