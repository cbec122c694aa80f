import 'package:flutter/material.dart';
import 'package:flutter_gen/gen_l10n/app_localizations.dart';

class HomeScreen extends StatelessWidget {
  const HomeScreen({super.key, required this.items, required this.user});

  final List<String> items;
  final String user;

  @override
  Widget build(BuildContext context) {
    final l10n = AppLocalizations.of(context)!;
    return Scaffold(
      appBar: AppBar(title: Text(AppLocalizations.of(context)!.appTitle)),
      body: Column(
        children: [
          Text(l10n.greeting(user)),
          Text(l10n.itemCount(items.length)),
          const Text('Swipe to delete'),
          Text('Last synced ${DateTime.now()}'),
          TextField(
            decoration: InputDecoration(hintText: 'Search items', labelText: l10n.addItem),
          ),
          Text('Beta'), // i18n-ignore
          Text(l10n.localeName),
        ],
      ),
      floatingActionButton: FloatingActionButton(
        onPressed: () {},
        tooltip: 'Add a new item',
        child: const Icon(Icons.add),
      ),
    );
  }
}

Widget footer() => Text('Made with Flutter');
