/**
 * PodTemplates: printers.go podTemplateColumnDefinitions (Name, Containers, Images, Pod Labels)
 * and printPodTemplate (layoutContainerCells; labels.FormatLabels of the template's labels). No age.
 */
import type { KObject, Container, Labels } from '../../../sim/api/types.js';
import { NAME, containerCells, formatLabels } from './cells.js';
import type { KindPrinter } from './types.js';

export const podtemplates: KindPrinter = {
  columns: [NAME, { name: 'Containers' }, { name: 'Images' }, { name: 'Pod Labels' }],
  row(obj: KObject) {
    const t = (obj as { template?: { metadata?: { labels?: Labels }; spec?: { containers?: Container[] } } }).template;
    const [names, images] = containerCells(t?.spec?.containers);
    return [obj.metadata.name, names, images, formatLabels(t?.metadata?.labels)];
  },
};
