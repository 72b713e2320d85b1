/** A time series chart (uPlot: canvas, made for dense time series; about 20 KB gzip). */
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

/** Points: unix seconds and values (SOL); redrawn when they change, resized with its box. */
export function LineChart(props: { points: [number, number][]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (el === null || props.points.length === 0) return;
    const data: uPlot.AlignedData = [props.points.map((p) => p[0]), props.points.map((p) => p[1])];
    const width = () => Math.max(280, el.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: 240,
        scales: { x: { time: true } },
        axes: [{ stroke: "#94a3b8" }, { stroke: "#94a3b8", size: 70 }],
        series: [
          {},
          {
            label: props.label,
            stroke: "#22c55e",
            width: 2,
            fill: "rgba(34,197,94,0.12)",
            value: (_u, v) => (v === null ? "—" : v.toFixed(4)),
          },
        ],
      },
      data,
      el,
    );
    const observer = new ResizeObserver(() => plot.setSize({ width: width(), height: 240 }));
    observer.observe(el);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [props.points, props.label]);
  if (props.points.length === 0) return <p class="muted">No data yet: trades appear here once confirmed.</p>;
  return <div class="chart" ref={box} role="img" aria-label={props.label} />;
}
