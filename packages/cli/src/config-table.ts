import { ConfigOptions, durationText, envVarName, memorySizeText, type ConfigKey, type ConfigOption } from '@weir/common';

function formatDefault(option: ConfigOption): string {
  if (option.type === 'duration') return `\`${durationText(Number(option.default))}\``;
  if (option.type === 'memory') return `\`${memorySizeText(Number(option.default))}\``;
  return option.default === '' ? '(empty)' : `\`${option.default}\``;
}

/** The README's configuration table as ConfigOptions says it must be. */
export function configTable(): string {
  const rows = (Object.entries(ConfigOptions) as [ConfigKey, ConfigOption][]).map(
    ([key, option]) =>
      `| \`${key}\` | \`${envVarName(key)}\` | ${option.type === 'enum' ? (option.values ?? []).join(', ') : option.type} | ${formatDefault(option)} | ${option.doc} |`,
  );
  return ['| key | environment variable | type | default | what it does |', '|---|---|---|---|---|', ...rows].join('\n');
}

