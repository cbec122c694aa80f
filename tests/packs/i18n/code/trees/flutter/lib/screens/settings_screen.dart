import 'package:flutter/material.dart';
import '../l10n/l10n.dart';

class SettingsScreen extends StatefulWidget {
  const SettingsScreen({super.key});

  @override
  State<SettingsScreen> createState() => _SettingsScreenState();
}

class _SettingsScreenState extends State<SettingsScreen> {
  bool dark = false;

  @override
  Widget build(BuildContext context) {
    return ListView(
      children: [
        ListTile(title: Text(context.l10n.settingsTitle)),
        SwitchListTile(
          title: Text(context.l10n.darkMode),
          value: dark,
          onChanged: (value) => setState(() => dark = value),
        ),
      ],
    );
  }
}
