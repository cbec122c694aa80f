import React from "react";

// A row rendered by a translated table: the parent passes its `t` down.
export function Row({ t, value }) {
  return (
    <tr>
      <td>{t("table.row_label")}</td>
      <td>{value}</td>
    </tr>
  );
}

export class LegacyRow extends React.Component {
  render() {
    return <td>{this.props.t("table.legacy_label")}</td>;
  }
}

export function EmptyRow() {
  return (
    <tr>
      <td>No rows yet</td>
    </tr>
  );
}
