/**
 * RoleBindings and ClusterRoleBindings: printers.go roleBindingsColumnDefinitions /
 * clusterRoleBindingsColumnDefinitions (:388-407), printRoleBinding (:2205), rbac SubjectsStrings.
 */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, arr, str } from './cells.js';
import type { KindPrinter } from './types.js';

export function subjectsStrings(subjects: unknown[]): { users: string[]; groups: string[]; sas: string[] } {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of subjects) {
    const kind = str(s, 'kind');
    if (kind === 'User') users.push(str(s, 'name'));
    else if (kind === 'Group') groups.push(str(s, 'name'));
    else if (kind === 'ServiceAccount') sas.push(`${str(s, 'namespace')}/${str(s, 'name')}`);
  }
  return { users, groups, sas };
}

export const rolebindings: KindPrinter = {
  columns: [
    NAME,
    { name: 'Role' },
    AGE,
    { name: 'Users', wide: true },
    { name: 'Groups', wide: true },
    { name: 'ServiceAccounts', wide: true },
  ],
  row(obj, now) {
    const { users, groups, sas } = subjectsStrings(arr(obj, 'subjects'));
    return [
      obj.metadata.name,
      `${str(obj, 'roleRef', 'kind')}/${str(obj, 'roleRef', 'name')}`,
      translateTimestampSince(obj.metadata.creationTimestamp, now),
      users.join(', '),
      groups.join(', '),
      sas.join(', '),
    ];
  },
};
