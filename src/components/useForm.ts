/**
 * Small form state for dialogs: string values, required checks with the server's wording
 * ("用户名不能为空"), per-field rules, and TextField props in one spread:
 *
 *   const form = useForm({ username: '', amount: '' }, {
 *     username: { label: '用户名', required: true, validate: (v) => (/^[A-Za-z0-9]{4,20}$/.test(v) ? null : '用户名为4-20位字母或数字') },
 *     amount: { label: '金额', required: true, validate: moneyRule('USDT') },
 *   });
 *   <TextField {...form.field('username')} />   <MoneyField asset="USDT" {...form.field('amount')} />
 *
 * A field is checked when it loses focus and, once wrong, on every change; `validate()` checks all.
 */
import { useCallback, useMemo, useRef, useState, type ChangeEvent } from 'react';

export type FormValues = Record<string, string>;

export interface FieldRule<V extends FormValues = FormValues> {
  /** Chinese label: the field's label and the subject of its messages. */
  label: string;
  required?: boolean;
  /** Returns the Chinese error, or null/undefined when the value is fine. Not called for an empty optional field. */
  validate?: (value: string, values: V, label: string) => string | null | undefined;
}

export type FieldRules<V extends FormValues> = Partial<Record<keyof V & string, FieldRule<V>>>;

export interface FieldProps {
  name: string;
  label?: string;
  value: string;
  required?: boolean;
  error: boolean;
  helperText?: string;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  onBlur: () => void;
  inputRef: (el: HTMLInputElement | HTMLTextAreaElement | null) => void;
}

export function checkField<V extends FormValues>(rule: FieldRule<V> | undefined, value: string, values: V) {
  if (!rule) return null;
  if (!value.trim()) return rule.required ? `${rule.label}不能为空` : null;
  return rule.validate?.(value, values, rule.label) ?? null;
}

export function useForm<V extends FormValues>(initial: V, rules: FieldRules<V> = {}) {
  const [values, setValuesState] = useState<V>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof V & string, string>>>({});
  const refs = useRef(new Map<string, HTMLInputElement | HTMLTextAreaElement>());
  const rulesRef = useRef(rules);
  rulesRef.current = rules;
  const valuesRef = useRef(values);
  valuesRef.current = values;

  const setError = useCallback((name: keyof V & string, message: string | null) => {
    setErrors((current) => {
      if ((current[name] ?? null) === message) return current;
      const next = { ...current };
      if (message) next[name] = message;
      else delete next[name];
      return next;
    });
  }, []);

  const setValue = useCallback((name: keyof V & string, value: string) => {
    const next = { ...valuesRef.current, [name]: value };
    valuesRef.current = next;
    setValuesState(next);
    setErrors((current) => {
      if (!current[name]) return current;
      const message = checkField(rulesRef.current[name], value, next);
      const copy = { ...current };
      if (message) copy[name] = message;
      else delete copy[name];
      return copy;
    });
  }, []);

  /** Replaces every value (opening the dialog for another row) and forgets the errors. */
  const reset = useCallback((next: V = initial) => {
    valuesRef.current = next;
    setValuesState(next);
    setErrors({});
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  /** Checks every field; focuses the first wrong one. True when all are fine. */
  const validate = useCallback((): boolean => {
    const found: Partial<Record<keyof V & string, string>> = {};
    let first: string | null = null;
    for (const name of Object.keys(valuesRef.current) as (keyof V & string)[]) {
      const message = checkField(rulesRef.current[name], valuesRef.current[name], valuesRef.current);
      if (message) {
        found[name] = message;
        first ??= name;
      }
    }
    setErrors(found);
    if (first) refs.current.get(first)?.focus();
    return first === null;
  }, []);

  const field = useCallback(
    (name: keyof V & string): FieldProps => {
      const rule = rules[name];
      const message = errors[name];
      return {
        name,
        label: rule?.label,
        value: values[name] ?? '',
        required: rule?.required,
        error: Boolean(message),
        helperText: message,
        onChange: (event) => setValue(name, event.target.value),
        onBlur: () => setError(name, checkField(rulesRef.current[name], valuesRef.current[name], valuesRef.current)),
        inputRef: (el) => {
          if (el) refs.current.set(name, el);
          else refs.current.delete(name);
        },
      };
    },
    [rules, errors, values, setValue, setError],
  );

  return useMemo(
    () => ({ values, errors, field, setValue, reset, validate, setError }),
    [values, errors, field, setValue, reset, validate, setError],
  );
}

export type Form<V extends FormValues> = ReturnType<typeof useForm<V>>;

export default useForm;
