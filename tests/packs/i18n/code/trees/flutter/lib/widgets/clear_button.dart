import 'package:flutter/material.dart';

class ClearButton extends StatelessWidget {
  const ClearButton({super.key, required this.label});

  final String label;

  @override
  Widget build(BuildContext context) {
    final strings = context.l10n;
    return TextButton(
      onPressed: () {},
      child: Text(strings.clearAll, semanticsLabel: 'Clear the list'),
    );
  }
}
