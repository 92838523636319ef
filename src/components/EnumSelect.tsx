/**
 * A select over a fixed set of values: a labelled enum of domain/ (`MemberStatus`), a list of plain
 * values (`Assets`, `Chains`: each its own label) or `{ value, label }` options (zones, roles). The
 * values are strings in the field, as the list params and forms hold them.
 *
 *   <EnumSelect filter label="状态" options={MemberStatus} {...params.field('status')} />
 */
import MenuItem from '@mui/material/MenuItem';
import TextField, { type TextFieldProps } from '@mui/material/TextField';

export interface EnumOption {
  value: string | number;
  label: string;
  /** Shown but not choosable (a disabled zone that is still the current value). */
  disabled?: boolean;
}

/** A labelled enum (`defineEnum` of domain/enums.ts), plain values, or explicit options. */
export type EnumOptions =
  | { readonly values: readonly number[]; label: (value: number) => string }
  | readonly (string | number)[]
  | readonly EnumOption[];

export function enumOptions(options: EnumOptions): EnumOption[] {
  if (!Array.isArray(options)) {
    const labelled = options as { readonly values: readonly number[]; label: (value: number) => string };
    return labelled.values.map((v) => ({ value: v, label: labelled.label(v) }));
  }
  return (options as readonly (string | number | EnumOption)[]).map((o) =>
    typeof o === 'object' ? o : { value: o, label: String(o) },
  );
}

export type EnumSelectProps = Omit<TextFieldProps, 'select' | 'children'> & {
  options: EnumOptions;
  /** A first item with the value "" and this label: "全部" in a filter, "无" for an optional field. */
  empty?: string;
  /** A list filter: small, 120 px unless `sx` says otherwise, with 全部 first. */
  filter?: boolean;
};

export function EnumSelect({ options, empty, filter, ...field }: EnumSelectProps) {
  if (filter) {
    empty ??= '全部';
    field = { size: 'small', sx: { width: 120 }, ...field };
  }
  return (
    <TextField select {...field}>
      {empty !== undefined ? <MenuItem value="">{empty}</MenuItem> : null}
      {enumOptions(options).map((o) => (
        <MenuItem key={o.value} value={String(o.value)} disabled={o.disabled}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

export default EnumSelect;
