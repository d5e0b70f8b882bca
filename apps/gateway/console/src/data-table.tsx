/**
 * A table of rows with TanStack Table (headless): the columns say what each cell shows; the
 * markup is a plain, accessible <table> that scrolls sideways on a phone.
 */
import { tableFeatures, useTable, type ColumnDef, type RowData } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import type { Page } from './api';
import { CursorPager, Loading } from './ui';
import type { Loaded } from './use-load';

const features = tableFeatures({});
export type Columns<T extends RowData> = Array<ColumnDef<typeof features, T>>;

export function DataTable<T extends RowData>({ columns, rows, caption, empty, rowKey }: { columns: Columns<T>; rows: T[]; caption: string; empty: ReactNode; rowKey: (row: T) => string }) {
  const table = useTable({ features, columns, data: rows, getRowId: rowKey });
  if (rows.length === 0) return <p className="empty">{empty}</p>;
  return (
    <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col">
                  {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} data-row={row.id}>
              {row.getAllCells().map((cell) => (
                <td key={cell.id} data-label={typeof cell.column.columnDef.header === 'string' ? cell.column.columnDef.header : undefined}>
                  <table.FlexRender cell={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One cursor page of rows as a table, with the pager under it (what every list of the admin API shows). */
export function PagedTable<T extends RowData>({ loaded, trail, onMove, ...table }: { loaded: Loaded<Page<T>>; trail: string[]; onMove: (trail: string[]) => void; columns: Columns<T>; caption: string; empty: ReactNode; rowKey: (row: T) => string }) {
  return (
    <Loading loaded={loaded}>
      {(page) => (
        <>
          <DataTable {...table} rows={page.items} />
          <CursorPager hasMore={page.has_more} nextCursor={page.next_cursor} trail={trail} onMove={onMove} />
        </>
      )}
    </Loading>
  );
}
