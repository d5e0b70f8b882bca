/** Orders per day as an SVG bar chart (no chart library): each bar titled with its date and count. */
export function OrdersChart({ days }: { days: { date: string; orders: number }[] }) {
  const most = Math.max(1, ...days.map((d) => d.orders));
  const width = 28;
  const height = 120;
  const total = days.reduce((n, d) => n + d.orders, 0);
  return (
    <figure style={{ margin: 0 }}>
      <svg className="chart" viewBox={`0 0 ${days.length * width} ${height + 30}`} role="img" aria-label={`${total} orders over ${days.length} days`}>
        {days.map((d, i) => {
          const h = Math.round((d.orders / most) * height);
          return (
            <g key={d.date} data-day={d.date}>
              <title>{`${d.date}: ${d.orders} order${d.orders === 1 ? '' : 's'}`}</title>
              <rect x={i * width + 4} y={height - h} width={width - 8} height={Math.max(h, d.orders > 0 ? 2 : 0)} rx={2} />
              <rect x={i * width + 4} y={height} width={width - 8} height={1} opacity={0.3} />
              {(i % 2 === days.length % 2 || i === days.length - 1) && (
                <text x={i * width + width / 2} y={height + 14} textAnchor="middle">
                  {d.date.slice(8)}
                </text>
              )}
              {d.orders > 0 && (
                <text x={i * width + width / 2} y={height - h - 3} textAnchor="middle">
                  {d.orders}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="muted">
        {total} order{total === 1 ? '' : 's'} from {days[0]?.date} to {days.at(-1)?.date} (UTC days)
      </figcaption>
    </figure>
  );
}
